// What SignIn and SignOut both compute, in one module so that a page with both ships it once.
// Internal. (Written for size: it ships to the browser.)

import { appBase } from './app-base.js';
import type { FormOptions } from './types.js';

/** The URL of a form action: `route` under the app's base path (a leading slash cannot make it protocol-relative). */
export const actionUrl = (route: string): string => `${appBase()}/${route.replace(/^\/+/, '')}`;

/** `redirectTo` of the `options` prop, as an object or as Auth.js's `FormData`. */
export const redirectOf = (options?: FormOptions | FormData): string | null | undefined =>
	options instanceof FormData ? (options.get('redirectTo') as string | null) : options?.redirectTo;
