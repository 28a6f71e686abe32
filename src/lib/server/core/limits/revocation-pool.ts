// A bounded pool of revocations kept fair between their owners (the users they belong to): when it
// is full, the owner holding the most records loses its oldest one first, so whoever writes many
// records (a user ending their own sessions in a loop, from many accounts) pushes out only their
// own, never a victim's single record. Internal to the memory store.

import { AdapterError } from '../errors.js';

interface Revocation {
	at: number;
	until: number;
	owner: string;
}

/**
 * Revocations by key, at most `max` at once.
 *
 * @example
 * const pool = new RevocationPool(50_000, { evictLastOnes: false });
 * pool.set('kitgate.sid:k3…', { at, until, owner: 'user-1' });
 */
export class RevocationPool {
	readonly #max: number;
	readonly #evictLastOnes: boolean;
	readonly #entries = new Map<string, Revocation>();
	readonly #counts = new Map<string, number>();

	/**
	 * @param max most records kept at once.
	 * @param options.evictLastOnes whether, when every owner holds a single record, the oldest is
	 * dropped (best-effort records) rather than the new one refused.
	 */
	constructor(max: number, options: { evictLastOnes: boolean }) {
		this.#max = Math.max(1, max);
		this.#evictLastOnes = options.evictLastOnes;
	}

	/** The live record of `key`, dropping it when expired. */
	get(key: string, now: number): Revocation | undefined {
		const entry = this.#entries.get(key);
		if (entry && entry.until <= now) {
			this.#delete(key, entry);
			return undefined;
		}
		return entry;
	}

	/**
	 * Records `key` (a later time never moves back). Throws `AdapterError` when the pool is full,
	 * every owner holds one live record and the pool keeps last ones.
	 */
	set(key: string, record: Revocation, now: number): void {
		const previous = this.#entries.get(key);
		if (previous) {
			previous.at = Math.max(previous.at, record.at);
			previous.until = Math.max(previous.until, record.until);
			return;
		}
		if (this.#entries.size >= this.#max) this.#makeRoom(now);
		this.#entries.set(key, { ...record });
		this.#counts.set(record.owner, (this.#counts.get(record.owner) ?? 0) + 1);
	}

	#delete(key: string, entry: Revocation): void {
		this.#entries.delete(key);
		const left = (this.#counts.get(entry.owner) ?? 1) - 1;
		if (left > 0) this.#counts.set(entry.owner, left);
		else this.#counts.delete(entry.owner);
	}

	/** Frees one place: expired records first, then the oldest of the owner holding the most. */
	#makeRoom(now: number): void {
		for (const [key, entry] of this.#entries) if (entry.until <= now) this.#delete(key, entry);
		if (this.#entries.size < this.#max) return;
		let heaviest: string | undefined;
		let most = 0;
		for (const [owner, count] of this.#counts) {
			if (count > most) {
				most = count;
				heaviest = owner;
			}
		}
		if (most <= 1 && !this.#evictLastOnes) {
			throw new AdapterError(
				`The memory revocation store holds ${this.#max} live revocations of as many users: a new one was refused rather than forgetting one. Raise maxRevocations, or use a shared store (docs/security.md).`
			);
		}
		for (const [key, entry] of this.#entries) {
			if (most <= 1 || entry.owner === heaviest) {
				this.#delete(key, entry);
				return;
			}
		}
	}
}
