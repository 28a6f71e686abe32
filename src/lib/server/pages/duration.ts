// Says how long a sign-in link lives ("24 hours", "10 minutes", "2 jours") in the page language.
// Internal to kitgate: used by the verify-request page and the sign-in email.

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A lifetime in whole seconds, minutes, hours or days, spelled out for `locale` with `Intl`
 * (English when the locale is unknown). Hours up to two days, days beyond.
 *
 * @example
 * describeDuration(86400, 'en'); // '24 hours'
 * describeDuration(600, 'fr'); // '10 minutes'
 */
export function describeDuration(seconds: number, locale = 'en'): string {
	const total = Math.max(0, Math.round(seconds));
	const [value, unit] =
		total < MINUTE
			? [total, 'second']
			: total < HOUR || (total < 6 * HOUR && total % HOUR !== 0)
				? [Math.round(total / MINUTE), 'minute']
				: total < 2 * DAY
					? [Math.round(total / HOUR), 'hour']
					: [Math.round(total / DAY), 'day'];
	return unitFormat(locale, unit).format(value);
}

function unitFormat(locale: string, unit: string): Intl.NumberFormat {
	try {
		return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' });
	} catch {
		// an invalid language tag from the config: English rather than a failed sign-in
		return new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' });
	}
}
