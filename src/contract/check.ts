/** @module The shape every contract check shares, and what a check reports. */
import type { Declared } from './declared.ts';
import type { Learned } from './learn.ts';
import type { Reading } from './reading.ts';
import type { Resource } from './resources.ts';
import { sameSetting, type Decided, type StandIn, type StandInSettings } from './stand-in.ts';
import type { Credentials, Holder, TargetClient, TokenLevel } from './target-client.ts';
import type { Walk, WalkOptions } from './walk.ts';

/**
 * Whose rule a check judges. `interface`: the interface document, or an HTTP standard every
 * client relies on; a correct service passes all of these. `stand-in`: a decision PRODUCT.md
 * took where the interface is open; a correct service may decide otherwise.
 */
import type { Failure } from './describe-exchange.ts';

export type { Failure };

export type Level = 'interface' | 'stand-in';

export const LEVELS: readonly Level[] = ['interface', 'stand-in'];

export interface CheckContext {
  readonly client: TargetClient;
  /** Walks a list by its next links; a walk asked for twice in a run is made once. */
  walk(path: string, as: Credentials, options?: WalkOptions): Promise<Walk>;
  /** The interface's token levels a token was given for. */
  readonly levels: readonly TokenLevel[];
  /** Every level a token was given for, the declared ones too. */
  readonly holders: readonly Holder[];
  /** The lists and items the spec declares beyond the interface's. */
  readonly declared: Declared;
  /** The level used where any will do: quantity when given, else status. */
  readonly primary: TokenLevel;
  /** What the unfiltered walks taught: real ids, names and items. */
  readonly learned: Learned;
  /** Every list and item served, with a level that reads it: for the checks of every answer. */
  readonly resources: readonly Resource[];
  /** How the target reads the interface's two-way points (name of the level, id type). */
  readonly reading: Reading;
  /** What the stand-in answers, for the stand-in-level checks to compare with. */
  readonly standIn: StandIn;
  /** The methods the spec declares at a path (spec-methods.ts). */
  readonly declaredAt: (path: string) => ReadonlySet<string>;
  readonly seed: number;
  readonly runs: number;
}

/** What a check found: its failures, and optionally what it saw (reported even when passing). */
export interface Findings {
  readonly failures: readonly Failure[];
  readonly observed?: string;
  /** Why the check could not judge this target (the data it needs is not served). */
  readonly skipped?: string;
  /** What the target decided on the open point the check looks at (for --suggest-config). */
  readonly decided?: readonly Decided[];
}

export interface Check {
  /** Dotted and stable: tests and JUnit refer to it. */
  readonly id: string;
  readonly title: string;
  readonly level: Level;
  /**
   * Where the rule comes from: a section of the interface document (`interface: Limits`), an
   * RFC (`RFC 9110 §9.3.2`), or a decision of PRODUCT.md (`PRODUCT.md: order of list items`).
   */
  readonly source: string;
  /** Token levels that must be given; the check is skipped, with the reason, without them. */
  readonly needs: readonly TokenLevel[];
  run(context: CheckContext): Promise<Findings>;
}

/**
 * `differs`: a stand-in check failed while the run judges the interface only. A client built
 * against the stand-in will meet the difference, but the target is not wrong.
 */
export type CheckOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failed'; readonly failures: readonly Failure[] }
  | { readonly kind: 'differs'; readonly failures: readonly Failure[] }
  | { readonly kind: 'skipped'; readonly reason: string };

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly level: Level;
  readonly source: string;
  readonly outcome: CheckOutcome;
  readonly observed?: string;
  readonly decided?: readonly Decided[];
  readonly ms: number;
}

/** What no setting covers, in words. */
export interface Uncovered {
  readonly uncovered: string;
}

function isUncovered(value: unknown): value is Uncovered {
  return typeof value === 'object' && value !== null && 'uncovered' in value;
}

export function found(failures: readonly Failure[], observed?: string): Findings {
  return observed === undefined ? { failures } : { failures, observed };
}

/**
 * A stand-in check's findings on one open point: what the target decided, and a failure when
 * that is not the stand-in's setting. `seen` says it in words, for the report and the comment
 * of a suggested setting.
 */
export function judgedSetting<K extends keyof StandInSettings>(
  context: CheckContext,
  setting: K,
  decided: StandInSettings[K] | Uncovered,
  seen: string,
  failure: () => Failure,
): Findings {
  const want = context.standIn.settings[setting];
  if (isUncovered(decided)) {
    return { failures: [failure()], observed: seen, decided: [decided] };
  }
  return {
    failures: sameSetting(decided, want) ? [] : [failure()],
    observed: seen,
    decided: [{ setting, value: decided, seen }],
  };
}
