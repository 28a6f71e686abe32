// Every story: kitgate's shipped stylesheet (tokens + component classes), a light/dark switch in
// the toolbar that sets `data-kg-theme` (as an app would), and a page background from the tokens.
import type { Preview } from '@storybook/sveltekit';
import '../src/lib/styles/kitgate.css';
import './preview.css';

const preview: Preview = {
	globalTypes: {
		theme: {
			description: 'Colour scheme of the components (data-kg-theme)',
			toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true }
		}
	},
	initialGlobals: { theme: 'light' },
	decorators: [
		(story, context) => {
			// the tokens follow this attribute (see src/lib/styles/tokens.js)
			document.documentElement.dataset.kgTheme = context.globals.theme === 'dark' ? 'dark' : 'light';
			return story();
		}
	],
	parameters: {
		layout: 'padded',
		controls: { expanded: true }
	}
};

export default preview;
