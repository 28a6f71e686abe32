// The design tokens of kitgate's pages and components: two colour palettes, radius and font,
// written as `--kg-*` CSS custom properties. Plain JS so the CSS build script reads the same values.

/**
 * The colour tokens of one colour scheme (values of the `--kg-*` custom properties).
 *
 * @typedef {object} Palette
 * @property {string} brand Buttons' background.
 * @property {string} brandText Text on brand buttons.
 * @property {string} bg Page background.
 * @property {string} card Card (and provider button) background.
 * @property {string} text Body text.
 * @property {string} muted Secondary text: still 4.5:1 on the card.
 * @property {string} border Borders of inputs and outlined buttons: at least 3:1 against the card.
 * @property {string} divider Decorative lines (card edge, "or" divider).
 * @property {string} focus Focus ring: at least 3:1 against the card and page.
 * @property {string} link Links.
 * @property {string} inputBg Input background.
 * @property {string} alertBg Error alert background.
 * @property {string} alertText Error alert text.
 * @property {string} alertBorder Error alert border.
 */

/**
 * The default palettes. Every text/background pair meets WCAG AA (4.5:1), and borders and
 * focus rings meet 3:1, in both schemes (checked by `pages/theme.test.ts`).
 *
 * @example defaultPalettes.dark.text // '#e9ebef'
 * @type {Readonly<Record<'light' | 'dark', Readonly<Palette>>>}
 */
export const defaultPalettes = {
	light: {
		brand: '#4361ee',
		brandText: '#fff',
		bg: '#f3f4f7',
		card: '#ffffff',
		text: '#1b1e24',
		muted: '#596070',
		border: '#858b98',
		divider: '#dfe2e8',
		focus: '#1d4ed8',
		link: '#2f4bd0',
		inputBg: '#ffffff',
		alertBg: '#fdeded',
		alertText: '#8b1a1a',
		alertBorder: '#f2b8b8'
	},
	dark: {
		brand: '#4361ee',
		brandText: '#fff',
		bg: '#0f1115',
		card: '#1a1d23',
		text: '#e9ebef',
		muted: '#a5abb8',
		border: '#6e7584',
		divider: '#2d313a',
		focus: '#8ab4ff',
		link: '#9db4ff',
		inputBg: '#111318',
		alertBg: '#3a1618',
		alertText: '#ffd0d0',
		alertBorder: '#7d2f33'
	}
};

/**
 * The tokens that do not change with the colour scheme.
 *
 * @example shapeTokens.radius // '0.5rem'
 */
export const shapeTokens = {
	radius: '0.5rem',
	font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif'
};

/**
 * The custom property of each palette field (`brandText` → `--kg-brand-text`).
 *
 * @example tokenName('inputBg') // '--kg-input-bg'
 * @param {string} field
 * @returns {string}
 */
export function tokenName(field) {
	return `--kg-${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * CSS declarations (`--kg-brand:#4361ee;…`) of a palette, plus radius and font.
 *
 * @example tokenDeclarations(defaultPalettes.light) // '--kg-brand:#4361ee;--kg-brand-text:#fff;…'
 * @param {Readonly<Palette>} palette
 * @returns {string}
 */
export function tokenDeclarations(palette) {
	const colors = Object.entries(palette).map(([field, value]) => `${tokenName(field)}:${value}`);
	return [...colors, `--kg-radius:${shapeTokens.radius}`, `--kg-font:${shapeTokens.font}`].join(';');
}

/**
 * The tokens for a stylesheet that sits in someone else's page (`kitgate/styles.css`): zero
 * specificity (`:where`), so any rule of the app overrides them. Each colour is
 * `light-dark(light, dark)`: the components follow the app's `color-scheme` (light when the app
 * declares none, as its own page then is), `data-kg-theme="light"|"dark"` on any ancestor forces
 * one, and so does a `.dark` / `[data-mode=dark]` / `[data-theme=dark]` ancestor (the dark-mode
 * switches of Tailwind, Skeleton and daisyUI), for kitgate's own elements only.
 *
 * @example embeddedTokenCss().startsWith(':where(:root){') // true
 * @returns {string}
 */
export function embeddedTokenCss() {
	const { light, dark } = defaultPalettes;
	const colors = Object.keys(light).map((field) => {
		const [a, b] = [light[/** @type {keyof Palette} */ (field)], dark[/** @type {keyof Palette} */ (field)]];
		return `${tokenName(field)}:${a === b ? a : `light-dark(${a},${b})`}`;
	});
	const kitgate = ":where([class^='kg-'],[class*=' kg-'])";
	// Vite's CSS minifier (Lightning CSS) rewrites light-dark(a,b) for older browsers as
	// `var(--lightningcss-light,a) var(--lightningcss-dark,b)`, whose switches it sets only where it
	// sees a color-scheme declaration: without one in the app, both would be unset and every token
	// invalid. These defaults make such a page light, as the browser would. They sit in the `base`
	// layer at zero specificity: any color-scheme the minifier sees sets the switches again, also in
	// a theme's own base layer (Skeleton's); without the rewrite they mean nothing.
	const lightningDefaults = '@layer base{:where(:root){--lightningcss-light:initial;--lightningcss-dark: }}';
	return (
		`:where(:root){${[...colors, `--kg-radius:${shapeTokens.radius}`, `--kg-font:${shapeTokens.font}`].join(';')}}` +
		lightningDefaults +
		`:where([data-kg-theme=light]){color-scheme:light}` +
		`:where([data-kg-theme=dark]){color-scheme:dark}` +
		`:where(.dark,[data-mode=dark],[data-theme=dark]) ${kitgate}{color-scheme:dark}`
	);
}
