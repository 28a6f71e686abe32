// The props every account component takes, apart from the rest so the two-factor components can
// share them without a circle. Export path: `kitgate/components` (`AccountSectionProps`).

import type { AccountOverview } from '../../server/core/account-types.js';
import type { Messages } from '../types.js';

/**
 * What every account component takes: the overview (`GET {basePath}/account`, loaded on the
 * server) and the page its forms come back to.
 *
 * @example
 * const props: AccountSectionProps = { overview: data.overview, callbackUrl: '/settings', result: data.result };
 */
export interface AccountSectionProps {
	/** The signed-in user's overview, as `GET {basePath}/account` answers it. */
	overview: AccountOverview;
	/** The page the forms come back to with `?account=<result>` or `?accountError=<code>` (usually this page's path). */
	callbackUrl: string;
	/** Where kitgate's routes are (default: the overview's `basePath`). */
	basePath?: string;
	/** The `?account=` of the page: the result of the last change, shown as a notice. */
	result?: string | null;
	/** The `?accountError=` of the page: why the last change was refused, shown as an alert. */
	error?: string | null;
	/** Texts keyed by message id (`account.*`, `passkey.*`), over English or what `setMessages` set. */
	messages?: Messages;
	/** The IANA time zone dates are written in (default `UTC`, the same on the server and in the browser). */
	timeZone?: string;
	/** Classes added to the component's root element. */
	class?: string;
}
