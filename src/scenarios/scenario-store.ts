/** @module The served data: one immutable catalogue per scenario, and which one is active. */
import type { Catalog } from '../catalog/catalog.ts';

/** The scenario that serves the config's `fixtures`. */
export const DEFAULT_SCENARIO = 'default';

/** Asked for a scenario that is not configured. */
export class UnknownScenario extends Error {
  readonly scenario: string;
  constructor(scenario: string, known: readonly string[]) {
    super(`unknown scenario "${scenario}" (known: ${known.join(', ')})`);
    this.name = 'UnknownScenario';
    this.scenario = scenario;
  }
}

/**
 * Holds every scenario's catalogue. All of it lives in one immutable state object whose
 * reference is swapped whole, so a request that has read a catalogue keeps it to its end, and a
 * reload or a switch is seen all at once or not at all.
 */
export interface ScenarioStore {
  readonly active: string;
  readonly names: readonly string[];
  /** The active scenario's catalogue. */
  readonly current: Catalog;
  /** A scenario's catalogue; undefined when there is no such scenario. */
  get(name: string): Catalog | undefined;
  /** Makes a scenario the active one; throws UnknownScenario. */
  activate(name: string): void;
  /** Replaces the active scenario's catalogue. */
  replace(catalog: Catalog): void;
  /** Replaces every catalogue at once (a reload); keeps the active name if it still exists. */
  replaceAll(catalogs: ReadonlyMap<string, Catalog>): void;
}

interface State {
  readonly active: string;
  readonly catalogs: ReadonlyMap<string, Catalog>;
}

export function createScenarioStore(
  initial: ReadonlyMap<string, Catalog> | Catalog,
  active: string = DEFAULT_SCENARIO,
): ScenarioStore {
  const catalogs =
    initial instanceof Map ? initial : new Map([[DEFAULT_SCENARIO, initial as Catalog]]);
  let state: State = checked({ active, catalogs });

  return {
    get active() {
      return state.active;
    },
    get names() {
      return [...state.catalogs.keys()];
    },
    get current() {
      return state.catalogs.get(state.active) as Catalog;
    },
    get: (name) => state.catalogs.get(name),
    activate(name) {
      state = checked({ ...state, active: name });
    },
    replace(catalog) {
      state = { ...state, catalogs: new Map([...state.catalogs, [state.active, catalog]]) };
    },
    replaceAll(next) {
      state = checked({
        active: next.has(state.active) ? state.active : DEFAULT_SCENARIO,
        catalogs: next,
      });
    },
  };
}

function checked(state: State): State {
  if (!state.catalogs.has(state.active))
    throw new UnknownScenario(state.active, [...state.catalogs.keys()]);
  return state;
}
