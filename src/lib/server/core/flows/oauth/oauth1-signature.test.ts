// RFC 5849 signing (oauth1-signature.ts) against the RFC's published examples and the worked
// example of X's developer docs: percent-encoding, the base string URI and parameters, HMAC-SHA1
// signatures, fresh nonces, and the Authorization header.

import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
	authorizationHeader,
	baseStringUri,
	hmacSha1Signature,
	normalizeParameters,
	percentEncode,
	signOAuth1Request,
	signatureBaseString,
	type ParameterPair
} from './oauth1-signature.js';

/** RFC 5849 §1.2: the photo-printing example's client and token credentials. */
const RFC = {
	clientKey: 'dpf43f3p2l4k3l03',
	clientSecret: 'kd94hf93k423kf44',
	temporaryToken: 'hh5s93j4hdidpola',
	temporarySecret: 'hdhd0244k9j7ao03',
	token: 'nnch734d00sl2jdk',
	tokenSecret: 'pfkkdhi9sl3r4s00'
};

/** The signature RFC 5849 prescribes, computed here from a base string with node:crypto directly. */
function expectedSignature(baseString: string, clientSecret: string, tokenSecret: string): string {
	return createHmac('sha1', `${clientSecret}&${tokenSecret}`).update(baseString).digest('base64');
}

describe('RFC 5849 signing', () => {
	test('percent-encoding keeps only unreserved characters (§3.6)', () => {
		expect(percentEncode('abcABC123-._~')).toBe('abcABC123-._~');
		expect(percentEncode('Ladies + Gentlemen')).toBe('Ladies%20%2B%20Gentlemen');
		expect(percentEncode('An encoded string!')).toBe('An%20encoded%20string%21');
		expect(percentEncode("Dogs, Cats & Mice (*'*)")).toBe('Dogs%2C%20Cats%20%26%20Mice%20%28%2A%27%2A%29');
		expect(percentEncode('☃')).toBe('%E2%98%83');
		expect(percentEncode('=%3D')).toBe('%3D%253D');
	});

	test('base string URI: lower-case scheme and host, default port dropped, no query (§3.4.1.2)', () => {
		expect(baseStringUri('HTTP://EXAMPLE.COM:80/r%20v/X?id=123')).toBe('http://example.com/r%20v/X');
		expect(baseStringUri('https://www.example.net:8080/?q=1')).toBe('https://www.example.net:8080/');
		expect(baseStringUri('https://www.example.net:443/a')).toBe('https://www.example.net/a');
	});

	test('the §3.4.1.1 request gives the published base string and normalised parameters', () => {
		// POST /request?b5=%3D%253D&a3=a&c%40=&a2=r%20b, body "c2&a3=2+q", Authorization with realm="Example"
		const url = 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b';
		const header: ParameterPair[] = [
			['realm', 'Example'],
			['oauth_consumer_key', '9djdj82h48djs9d2'],
			['oauth_token', 'kkk9d7dh3k39sjv7'],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_timestamp', '137131201'],
			['oauth_nonce', '7d8f3e4a'],
			['oauth_signature', 'bYT5CMsGcbgUdFHObYMEfcx6bsw=']
		];
		const body = [...new URLSearchParams('c2&a3=2+q')] as ParameterPair[];
		expect(signatureBaseString('POST', url, [...header, ...body])).toBe(
			'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7'
		);
		const all = [...new URL(url).searchParams, ...header.slice(1, 6), ...body] as ParameterPair[];
		expect(normalizeParameters(all)).toBe(
			'a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7'
		);
	});

	test('§1.2 temporary credentials request: published signature 74KNZJeDHnMBp0EMJ9ZHt/XKycU=', () => {
		const base = signatureBaseString('POST', 'https://photos.example.net/initiate', [
			['oauth_consumer_key', RFC.clientKey],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_timestamp', '137131200'],
			['oauth_nonce', 'wIjqoS'],
			['oauth_callback', 'http://printer.example.com/ready']
		]);
		expect(base).toBe(
			'POST&https%3A%2F%2Fphotos.example.net%2Finitiate&oauth_callback%3Dhttp%253A%252F%252Fprinter.example.com%252Fready%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3DwIjqoS%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131200'
		);
		const signature = hmacSha1Signature(base, RFC.clientSecret);
		expect(signature).toBe(expectedSignature(base, RFC.clientSecret, ''));
		expect(signature).toBe('74KNZJeDHnMBp0EMJ9ZHt/XKycU=');
	});

	test('§1.2 token credentials request: published signature gKgrFCywp7rO0OXSjdot/IHF7IU=', () => {
		const base = signatureBaseString('POST', 'https://photos.example.net/token', [
			['oauth_consumer_key', RFC.clientKey],
			['oauth_token', RFC.temporaryToken],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_timestamp', '137131201'],
			['oauth_nonce', 'walatlh'],
			['oauth_verifier', 'hfdp7dh39dks9884']
		]);
		const signature = hmacSha1Signature(base, RFC.clientSecret, RFC.temporarySecret);
		expect(signature).toBe(expectedSignature(base, RFC.clientSecret, RFC.temporarySecret));
		expect(signature).toBe('gKgrFCywp7rO0OXSjdot/IHF7IU=');
	});

	test('§1.2 "photos" resource request: published base string and signature MdpQcU8iPSUjWoN/UDMsK2sui9I=', () => {
		const base = signatureBaseString('GET', 'http://photos.example.net/photos?file=vacation.jpg&size=original', [
			['realm', 'Photos'],
			['oauth_consumer_key', RFC.clientKey],
			['oauth_token', RFC.token],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_timestamp', '137131202'],
			['oauth_nonce', 'chapoH']
		]);
		expect(base).toBe(
			'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3DchapoH%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131202%26oauth_token%3Dnnch734d00sl2jdk%26size%3Doriginal'
		);
		const signature = hmacSha1Signature(base, RFC.clientSecret, RFC.tokenSecret);
		expect(signature).toBe(expectedSignature(base, RFC.clientSecret, RFC.tokenSecret));
		expect(signature).toBe('MdpQcU8iPSUjWoN/UDMsK2sui9I=');
	});

	test('signOAuth1Request reproduces the worked example of X’s developer docs (query, body, version)', () => {
		const { authorization, protocolParams } = signOAuth1Request({
			method: 'POST',
			url: 'https://api.twitter.com/1.1/statuses/update.json?include_entities=true',
			consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
			consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
			token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
			tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
			bodyParams: { status: 'Hello Ladies + Gentlemen, a signed OAuth request!' },
			nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
			timestamp: 1318622958
		});
		expect(protocolParams.oauth_signature).toBe('hCtSmYh+iHYCEqBWrE7C7hYmtUk=');
		expect(authorization.startsWith('OAuth ')).toBe(true);
		expect(authorization).toContain('oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D"');
		expect(authorization).toContain('oauth_version="1.0"');
		// the body parameter is signed but not sent in the header
		expect(authorization).not.toContain('status');
	});

	test('a fresh nonce and the current time are used when none is given', () => {
		const sign = () =>
			signOAuth1Request({ method: 'GET', url: 'https://api.example.com/x', consumerKey: 'k', consumerSecret: 's' }).protocolParams;
		const [a, b] = [sign(), sign()];
		expect(a.oauth_nonce).toMatch(/^[0-9a-f]{32}$/);
		expect(a.oauth_nonce).not.toBe(b.oauth_nonce);
		expect(Math.abs(Number(a.oauth_timestamp) - Date.now() / 1000)).toBeLessThan(5);
	});

	test('the Authorization header encodes values and puts realm first', () => {
		expect(authorizationHeader({ oauth_callback: 'http://printer.example.com/ready', a: 'b c' }, 'Photos')).toBe(
			'OAuth realm="Photos", oauth_callback="http%3A%2F%2Fprinter.example.com%2Fready", a="b%20c"'
		);
	});
});
