// The `twoFactor` option resolved: whether every user needs a second factor, and for how many days
// a browser may be trusted to skip the second step. Checked at start-up, with messages that say
// what to change.

import { hasAdapterMethod, type AdapterMethod } from '../store/adapter-guard.js';
import { InvalidConfiguration, MissingAdapter, MissingAdapterMethod } from '../errors.js';
import type { Adapter, TwoFactorOptions } from '../types.js';

/** `twoFactor` with defaults filled in. */
export interface ResolvedTwoFactorOptions {
	/** A user without a second factor is sent to set one up before any session starts. */
	required: boolean;
	/** Days a browser stays trusted after "Trust this browser"; 0: the box is not offered. */
	trustBrowserDays: number;
}

const SECONDS_PER_DAY = 24 * 60 * 60;

/** What a forced enrolment and the second step call on the adapter. */
const REQUIRED_METHODS: AdapterMethod[] = ['getTwoFactor', 'setTwoFactor', 'useTotpStep', 'useRecoveryCode', 'getUser'];

/**
 * Resolves `config.twoFactor`. `trustBrowserDays` may not outlive `jwtMaxAge`: the revocation
 * store keeps the "signed out everywhere" time that long, and a trusted browser must not outlive it.
 *
 * @example
 * resolveTwoFactorOptions({ required: true }, { adapter, jwtMaxAge: 2592000 }) // { required: true, trustBrowserDays: 0 }
 */
export function resolveTwoFactorOptions(option: TwoFactorOptions | undefined, facts: { adapter?: Adapter; jwtMaxAge: number }): ResolvedTwoFactorOptions {
	if (option === undefined) return { required: false, trustBrowserDays: 0 };
	if (option === null || typeof option !== 'object') {
		throw new InvalidConfiguration('twoFactor must be an object such as { required: true, trustBrowserDays: 30 }.');
	}
	if (option.required !== undefined && typeof option.required !== 'boolean') {
		throw new InvalidConfiguration('twoFactor.required must be true or false.');
	}
	const days = option.trustBrowserDays ?? 0;
	if (typeof days !== 'number' || !Number.isInteger(days) || days < 0) {
		throw new InvalidConfiguration(`twoFactor.trustBrowserDays must be a whole number of days (0 turns it off); got ${JSON.stringify(days)}.`);
	}
	if (days * SECONDS_PER_DAY > facts.jwtMaxAge) {
		throw new InvalidConfiguration(
			`twoFactor.trustBrowserDays (${days}) is longer than jwt.maxAge (${facts.jwtMaxAge} s, which defaults to session.maxAge): ` +
				'revocations are kept that long, so a trusted browser may not outlive them. Lower trustBrowserDays or raise the max age.'
		);
	}
	const required = option.required === true;
	if (required || days > 0) checkAdapter(facts.adapter, required ? 'twoFactor.required' : 'twoFactor.trustBrowserDays');
	return { required, trustBrowserDays: days };
}

function checkAdapter(adapter: Adapter | undefined, option: string): void {
	if (!adapter) throw new MissingAdapter(`${option} works on the second factors an adapter stores: pass \`adapter\`.`);
	const lacking = REQUIRED_METHODS.find((method) => !hasAdapterMethod(adapter, method));
	if (lacking) {
		throw new MissingAdapterMethod(`The adapter has no \`${lacking}\` method, which ${option} needs (docs/two-factor.md). Add it, or leave the option out.`);
	}
}

/**
 * Milliseconds a trusted browser stays trusted. Pure.
 *
 * @example
 * trustMilliseconds({ required: false, trustBrowserDays: 30 }) // 2_592_000_000
 */
export function trustMilliseconds(options: ResolvedTwoFactorOptions): number {
	return options.trustBrowserDays * SECONDS_PER_DAY * 1000;
}
