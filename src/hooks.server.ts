// Every request of the demo goes through kitgate's handle (compose more hooks with `sequence`).
export { handle } from './auth.js';
