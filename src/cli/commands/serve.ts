/** @module `stockmock serve`: load, validate, listen; reload on --watch, SIGHUP and the admin API. */
import type { Logger } from 'pino';
import { beginStart } from '../../api/begin-start.ts';
import { loadConfigMarked, type ConfigRequest } from '../../config/load-config.ts';
import { formatSourceIssue, type SourceIssue } from '../../problems/source-error.ts';
import type { Reloader } from '../../scenarios/reloader.ts';
import type { FileWatch } from '../../scenarios/watch-files.ts';
import type { Command } from '../command.ts';
import { CONFIG_FLAGS, configFlagHelp, configFlags } from '../config-flags.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the spec: its lists and items from the fixtures, the rest from its examples',
  usage:
    'stockmock serve [--config FILE] [--fixtures FILE] [--scenario NAME] [--port N] [--host H]\n' +
    '                [--spec FILE] [--base-url URL] [--log-level LEVEL] [--log-format F] [--watch]\n' +
    '                [--strict]\n' +
    configFlagHelp(true),
  flags: { ...CONFIG_FLAGS, watch: { type: 'boolean' } },
  async run(args, io) {
    const fromFlags = configFlags(args);
    const flags =
      args.flags['watch'] === true ? { ...fromFlags.flags, watch: true } : fromFlags.flags;
    // Warnings (a deprecated key) wait for the logger, which the config sets up.
    const early: SourceIssue[] = [];
    let warn = (issue: SourceIssue): void => {
      early.push(issue);
    };
    const request: ConfigRequest = {
      cwd: io.cwd,
      env: io.env,
      ...fromFlags,
      flags,
      onWarning: (issue) => {
        warn(issue);
      },
    };
    const { config, marks } = await loadConfigMarked(request);
    // The load begins at once; the spec is read and the data built while this thread loads the
    // server's modules (about 150 ms at start), which are imported only once the plan is sent.
    const starting = beginStart(config, request, marks);
    // Awaited below, once the config's warnings are logged: a refused spec must not lose them.
    starting.catch(() => undefined);
    const { createAppLogger } = await import('../../http/app-logger.ts');
    const log = createAppLogger({ level: config.logLevel, format: config.logFormat });
    warn = (issue) => {
      log.warn(formatSourceIssue(issue));
    };
    early.forEach(warn);
    const begun = await starting;
    const [{ launch }, { closeOnSignals }, { watchFiles }] = await Promise.all([
      import('../../api/launch.ts'),
      import('../../http/start-server.ts'),
      import('../../scenarios/watch-files.ts'),
    ]);
    let markClosed = (): void => undefined;
    const closed = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    let stopHangups = (): void => undefined;
    const { server, catalogs, reloader } = await launch({
      config,
      configMarks: marks,
      request,
      begun,
      log,
      // Before "listening on" is logged: a signal sent on reading it is handled, not fatal.
      onListening: (listening) => {
        closeOnSignals(listening.server, markClosed);
        const onHangup = (): void => {
          void reloadAndLog(listening.reloader, log, 'SIGHUP');
        };
        process.on('SIGHUP', onHangup);
        stopHangups = () => process.off('SIGHUP', onHangup);
      },
    });
    const { sizes, source } = catalogs.current;
    log.info(
      {
        ...Object.fromEntries(sizes),
        scenario: catalogs.active,
        source,
        scenarios: catalogs.names,
      },
      `serving ${
        sizes.size === 0
          ? "the spec's examples (it declares no collections, so no fixture is read)"
          : [...sizes].map(([name, size]) => `${String(size)} ${name}`).join(', ')
      } on ${server.url} (docs: ${server.url}/docs)`,
    );

    let watch: FileWatch | undefined;
    if (config.watch) {
      // What is served may come from other files after a reload (a fixture renamed in the
      // config, a file the spec now refers to): each reload watches the files it read.
      const onChange = (file: string): void => {
        void reloadAndLog(reloader, log, `${file} changed`).then(() =>
          watch?.update(reloader.files),
        );
      };
      watch = watchFiles(reloader.files, onChange);
      log.info(`watching ${reloader.files.join(', ')} for changes`);
    }
    await closed;
    stopHangups();
    watch?.close();
    return 0;
  },
};

/** A refused reload is logged with file, line and field; the last good data stays served. */
async function reloadAndLog(reloader: Reloader, log: Logger, why: string): Promise<void> {
  const result = await reloader.reload();
  if (result.ok) log.info({ scenarios: result.scenarios }, `reloaded (${why})`);
  else {
    log.error(
      { issues: result.issues.map(formatSourceIssue) },
      `reload refused (${why}); still serving the last good data:\n${result.issues.map(formatSourceIssue).join('\n')}`,
    );
  }
}
