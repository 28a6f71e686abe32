// The floor: a Worker that answers `null` (what /auth/session answers without a session) to any
// request, so the runtime's own cost of a request can be taken out of the others'.

export default {
	fetch: () => new Response('null', { headers: { 'content-type': 'application/json' } })
};
