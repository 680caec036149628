/**
 * @module A start's first half, before the server's own modules are needed: the files' marks
 * taken, the load begun, the spec read and the plan sent. The loading workers then build the
 * data while the serving thread imports Fastify and builds the app (launch.ts).
 */
import type { Config } from '../config/config-schema.ts';
import type { ConfigRequest } from '../config/load-config.ts';
import { beginStartLoad, type LoadedScenarios } from '../scenarios/begin-load.ts';
import { fixtureFiles } from '../scenarios/reloader.ts';
import { marksOf, type FileMark } from '../source/read-source-text.ts';
import { isUrlLocation } from '../spec/spec-references.ts';
import type { Declared } from './serving.ts';

export interface StartBegun {
  readonly declared: Declared & { readonly config: Config };
  /** Every scenario, once the workers have built it by the declared plan. */
  readonly loaded: Promise<LoadedScenarios>;
  /** How each file looked just before it was read: what a reload may take as read whole. */
  readonly lastRead: Promise<Readonly<Record<string, FileMark>>>;
  /** How long the spec took to read. */
  readonly readingMs: number;
}

export async function beginStart(
  read: Config,
  request: ConfigRequest,
  /** How the config file looked just before it was read (loadConfigMarked). */
  configMarks: Readonly<Record<string, FileMark>> = {},
): Promise<StartBegun> {
  const specFile = isUrlLocation(read.spec) ? [] : [read.spec];
  const lastRead = marksOf([...specFile, ...fixtureFiles(read)]).then((marks) => ({
    ...configMarks,
    ...marks,
  }));
  // The files are read while the spec is.
  const loading = beginStartLoad(read);
  const since = performance.now();
  let declared: StartBegun['declared'];
  try {
    const { readDeclared } = await import('./serving.ts');
    declared = await readDeclared(read, request);
  } catch (error) {
    loading.cancel();
    throw error;
  }
  const loaded = loading.finish(declared.plan);
  // Awaited once the app is built; a start that fails before then must not leave it unhandled.
  loaded.catch(() => undefined);
  return { declared, loaded, lastRead, readingMs: performance.now() - since };
}
