// The message table as the built-in pages and the engine use it. The tables themselves live in
// `src/lib/messages/` (neutral: the components use them in the browser too); add texts there.

export {
	errorMessageIds,
	format,
	localeOf,
	messages,
	resolveMessages,
	retryableErrors,
	signInErrorId,
	text,
	type Locale,
	type MessageTable
} from '../../messages/index.js';
