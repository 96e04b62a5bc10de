import { SignInKind, SignInMessages } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import type { SignInStateRecord, SignInStatesRepository, StatePayload } from './sign-in-states.repository.ts';

/** A state lives longer than the code it brings back (5 minutes at Lark and WeCom). */
export const STATE_TTL_MS = 10 * 60 * 1000;

export interface IssuedState {
  state: string;
  expiresAt: number;
  /** For browser flows: a secret for an HttpOnly cookie, so only the browser that started can finish. */
  binding: string | null;
}

export type StateRow = SignInStateRecord & { data: StatePayload };

/** Issues and takes the states of Lark/WeCom sign-ins: random, hashed at rest, bound, single use. */
export function createSignInStates(repo: SignInStatesRepository, clock: Clock) {
  async function load(state: string): Promise<StateRow> {
    const row = await repo.find(sha256Hex(state));
    if (!row || row.expire_time < clock.now()) throw AppError.badRequest(SignInMessages.stateInvalid);
    return { ...row, data: row.payload };
  }

  return {
    async issue(
      kind: SignInKind,
      payload: StatePayload,
      options: { bound: boolean; userId?: number },
    ): Promise<IssuedState> {
      const prefix = kind === SignInKind.terminal ? `${kind}.${payload.port}` : kind;
      const state = `${prefix}.${randomToken().slice(0, 32)}`;
      const binding = options.bound ? randomToken() : null;
      const now = clock.now();
      await repo.insert({
        state_hash: sha256Hex(state),
        purpose: kind,
        binding_hash: binding ? sha256Hex(binding) : null,
        payload,
        status: 'pending',
        user_id: options.userId ?? null,
        create_time: now,
        expire_time: now + STATE_TTL_MS,
      });
      return { state, expiresAt: now + STATE_TTL_MS, binding };
    },

    load,

    /**
     * Takes a pending state of one of `kinds` for good: the same state never works twice, a forged or
     * expired one never works, and a bound one only from the browser holding its cookie.
     */
    async take(state: string, kinds: SignInKind[], binding: string | null): Promise<StateRow> {
      const row = await load(state);
      if (!kinds.includes(row.purpose as SignInKind) || row.status !== 'pending')
        throw AppError.badRequest(SignInMessages.stateInvalid);
      if (row.binding_hash && (!binding || sha256Hex(binding) !== row.binding_hash))
        throw AppError.badRequest(SignInMessages.stateInvalid);
      if (!(await repo.transition(row.state_hash, 'pending', 'used')))
        throw AppError.badRequest(SignInMessages.stateInvalid);
      return row;
    },

    /** True when the row is not bound, or bound to this browser's binding secret. */
    isBoundTo(row: StateRow, binding: string | null): boolean {
      return !row.binding_hash || (binding !== null && sha256Hex(binding) === row.binding_hash);
    },

    transition: repo.transition,
    deleteExpired: () => repo.deleteExpired(clock.now()),
  };
}
export type SignInStates = ReturnType<typeof createSignInStates>;
