/** @module The programmatic API of stockmock: `startStockmock` for test suites, and its parts. */
export {
  startStockmock,
  type Stockmock,
  type StockmockOptions,
  type StockmockSession,
} from './api/start-stockmock.ts';
export type { JournalEntry, JournalFilter } from './admin/request-journal.ts';
export type { ReloadResult } from './scenarios/reloader.ts';
export type { FixtureRecord } from './api/start-stockmock.ts';
export { buildApp, type AppDeps } from './api/build-app.ts';
export { startServer, type RunningServer } from './http/start-server.ts';
export { loadConfig, DEFAULTS, type ConfigRequest } from './config/load-config.ts';
export type { Config } from './config/config-schema.ts';
export { loadSpec, SHIPPED_SPEC, type LoadedSpec } from './spec/load-spec.ts';
export { readDeclarations, type Declarations } from './resources/declarations.ts';
export {
  createScenarioStore,
  DEFAULT_SCENARIO,
  type ScenarioStore,
} from './scenarios/scenario-store.ts';
export type { Dataset } from './dataset/dataset.ts';
export { SourceError, type SourceIssue } from './problems/source-error.ts';
export { runMain } from './cli/main.ts';
