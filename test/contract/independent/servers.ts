/**
 * The independent servers the contract checker is tested with: the correct reference, and its
 * variants, each either broken in exactly one rule or deciding one open point otherwise.
 */
import { BROKEN_DATA } from './broken-data.ts';
import { BROKEN_EDGES } from './broken-edges.ts';
import { DIFFERENT_MORE } from './different-more.ts';
import { BROKEN_HTTP } from './broken-http.ts';
import { ROUND5_STOCK } from './broken-round5.ts';
import { ROUND6_STOCK } from './broken-round6.ts';
import { ROUND7_STOCK } from './broken-round7.ts';
import { ROUND8_STOCK } from './broken-round8.ts';
import { DIFFERENT } from './different.ts';
import { startReferenceServer, type ReferenceOptions } from './reference-server.ts';

export interface RunningServer {
  readonly url: string; // e.g. http://127.0.0.1:PORT (listen on 127.0.0.1, port 0)
  readonly tokens: { readonly status: string; readonly quantity: string };
  close(): Promise<void>;
}

export interface IndependentServer {
  /** Unique and readable, e.g. 'next link skips a page'. */
  readonly name: string;
  /**
   * broken: breaks one rule and only that; different: a correct service that decides one open
   * point of the interface otherwise than PRODUCT.md.
   */
  readonly kind: 'broken' | 'different';
  /**
   * The rule broken, or the open point and the choice made, with its source: a section of the
   * interface document, an RFC section, or the PRODUCT.md decision.
   */
  readonly rule: string;
  /**
   * The level the broken rule belongs to: 'interface' (the interface document or an HTTP RFC)
   * or 'stand-in' (a PRODUCT.md decision only). Every 'different' server is 'stand-in'.
   */
  readonly level: 'interface' | 'stand-in';
  start(): Promise<RunningServer>;
}

/** A variant as data: what it is, and the reference options that make it. */
export interface VariantSpec {
  readonly name: string;
  readonly kind: IndependentServer['kind'];
  readonly rule: string;
  readonly level: IndependentServer['level'];
  /** A function when the variant keeps state (a counter, a cache): fresh for each start. */
  readonly options: ReferenceOptions | (() => ReferenceOptions);
}

function toServer(spec: VariantSpec): IndependentServer {
  return {
    name: spec.name,
    kind: spec.kind,
    rule: spec.rule,
    level: spec.level,
    start: () =>
      startReferenceServer(typeof spec.options === 'function' ? spec.options() : spec.options),
  };
}

export const INDEPENDENT_SERVERS: readonly IndependentServer[] = [
  ...BROKEN_HTTP,
  ...BROKEN_DATA,
  ...BROKEN_EDGES,
  ...DIFFERENT,
  ...DIFFERENT_MORE,
  ...ROUND5_STOCK,
  ...ROUND6_STOCK,
  ...ROUND7_STOCK,
  ...ROUND8_STOCK,
].map(toServer);

/** The correct reference, deciding everything as PRODUCT.md does. */
export const REFERENCE: IndependentServer = {
  name: 'reference',
  // Not a variant: it breaks nothing and decides nothing otherwise. The type has no kind for
  // that, so REFERENCE stays out of INDEPENDENT_SERVERS and says so in its rule.
  kind: 'different',
  rule: 'none: every open point decided as PRODUCT.md does, every rule kept',
  level: 'stand-in',
  start: () => startReferenceServer(),
};
