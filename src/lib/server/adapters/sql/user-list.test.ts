import { expect, test } from 'vitest';
import { containsPattern } from './user-list.js';

test('containsPattern: a LIKE pattern in which %, _ and the escape character are literal', () => {
	expect(containsPattern('ada')).toBe('%ada%');
	expect(containsPattern('50%_off')).toBe('%50!%!_off%');
	expect(containsPattern('wow!')).toBe('%wow!!%');
	expect(containsPattern('c:\\dir')).toBe('%c:\\dir%');
});
