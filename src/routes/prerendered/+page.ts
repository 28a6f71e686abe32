// Built once at build time (`vite build`) and served as a static file: the components must not
// need a session, and the page must carry none (e2e/ui-components.spec.ts checks both).
export const prerender = true;
