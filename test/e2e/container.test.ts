/**
 * The Dockerfile and the Kubernetes example, without a Docker engine: the Dockerfile's own
 * steps run in a temporary folder (each stage's COPY and RUN in order, then the image's start
 * command and health check with its environment), and the manifests are checked for what
 * makes them work together. The data the ConfigMap holds is then served by the image's files.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { freePort } from '../../bench/free-port.ts';
import { SESSION_HEADER } from '../../src/sessions/session-store.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}
interface Stage {
  readonly from: string;
  readonly name: string;
  readonly instructions: readonly Instruction[];
}

/** The Dockerfile's stages: comments dropped, continued lines joined. */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replaceAll(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: { from: string; name: string; instructions: Instruction[] }[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword === 'FROM') {
      const [from = '', , name = ''] = args.split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword, args });
  }
  return stages;
}

/** `ENV A=1 B=2` as a record. */
function envOf(args: string): Record<string, string> {
  return Object.fromEntries(
    args.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string]),
  );
}

let work: string;
let stages: Stage[];
let runtime: Stage;
/** Where each stage's WORKDIR (/app) is, once its steps have run. */
const appOf = new Map<string, string>();
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'stockmock-container-'));
  stages = parseDockerfile(await readFile(join(root, 'Dockerfile'), 'utf8'));
  runtime = stages.at(-1) as Stage;
  for (const stage of stages) await runStage(stage);
}, 600_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A stage's COPY and RUN steps, in order, in a folder standing for its WORKDIR. */
async function runStage(stage: Stage): Promise<void> {
  const app = join(work, stage.name, 'app');
  await mkdir(app, { recursive: true });
  appOf.set(stage.name, app);
  let env: Record<string, string> = {};
  for (const { keyword, args } of stage.instructions) {
    if (keyword === 'ENV') env = { ...env, ...envOf(args) };
    if (keyword === 'COPY') {
      const from = /^--from=(\S+)\s+/.exec(args);
      const paths = args.replace(/^--from=\S+\s+/, '').split(/\s+/);
      const target = paths.pop() ?? '.';
      for (const source of paths) {
        const origin =
          from === null
            ? join(root, source)
            : join(sourceApp(from[1] ?? ''), source.replace(/^\/app\/?/, ''));
        const destination = target.endsWith('/')
          ? join(app, target, source.split('/').at(-1) ?? '')
          : join(app, target);
        await cp(origin, destination, { recursive: true });
      }
    }
    if (keyword === 'RUN') {
      // The image's Node is this test's; npm takes packages from its cache where it can.
      await run('sh', ['-c', args], {
        cwd: app,
        env: {
          ...process.env,
          ...env,
          PATH: pathWithThisNode(),
          npm_config_prefer_offline: 'true',
        },
        maxBuffer: 64 * 1024 * 1024,
      });
    }
  }
}

function sourceApp(stage: string): string {
  const app = appOf.get(stage);
  if (app === undefined) throw new Error(`COPY --from=${stage}: no such earlier stage`);
  return app;
}

function pathWithThisNode(): string {
  return `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`;
}

function instructions(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((step) => step.keyword === keyword).map((step) => step.args);
}

function runtimeEnv(): Record<string, string> {
  return Object.assign({}, ...instructions(runtime, 'ENV').map(envOf)) as Record<string, string>;
}

describe('the Dockerfile', () => {
  it('is multi-stage, on a small Node 24 image, unprivileged, listening everywhere', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runtime.from).toMatch(/^node:24-(bookworm-slim|alpine)/);
    expect(instructions(runtime, 'USER')).toEqual(['node']);
    expect(runtimeEnv()['STOCKMOCK_HOST']).toBe('0.0.0.0');
    expect(instructions(runtime, 'EXPOSE')).toEqual(['4010']);
    // The server's own health, which every spec has, whatever it declares (or secures).
    expect(instructions(runtime, 'HEALTHCHECK').join(' ')).toContain('/__stockmock/health');
    // Only production dependencies in the image.
    expect(instructions(runtime, 'RUN').join(' ')).toContain('npm ci --omit=dev');
  });

  it("starts with the image's command, passes its health check and serves the shipped data", async () => {
    const served = await startImage({});
    try {
      await expectHealthy(served.port);
      const response = await fetch(`http://127.0.0.1:${String(served.port)}/v1/stock?limit=1`, {
        headers: { authorization: 'Bearer status-demo-token' },
      });
      expect(response.status).toBe(200);
      // Bound to every interface, as a container's port mapping needs.
      expect(served.log()).toContain(`products on http://0.0.0.0:${String(served.port)}`);
    } finally {
      await served.stop();
    }
  });

  it('serves mounted data: the Kubernetes ConfigMap, named by STOCKMOCK_CONFIG', async () => {
    const data = join(work, 'mounted');
    await mkdir(data);
    for (const [file, text] of Object.entries(await configMapData())) {
      await writeFile(join(data, file), text);
    }
    const served = await startImage({ STOCKMOCK_CONFIG: join(data, 'stockmock.config.yaml') });
    try {
      await expectHealthy(served.port);
      const health = await fetch(`http://127.0.0.1:${String(served.port)}/healthz`);
      expect(await health.json()).toStrictEqual({ status: 'ok', products: 3 });
    } finally {
      await served.stop();
    }
  });

  it("passes its health check serving a team's own spec: the billing example", async () => {
    const config = join(root, 'examples', 'billing', 'stockmock.config.yaml');
    const served = await startImage({ STOCKMOCK_CONFIG: config });
    try {
      await expectHealthy(served.port);
      const origin = `http://127.0.0.1:${String(served.port)}`;
      const health = await fetch(`${origin}/__stockmock/health`);
      const { status, collections } = (await health.json()) as {
        status: string;
        collections: Record<string, number>;
      };
      expect(status).toBe('ok');
      // The counts of the example's own fixture file, read here.
      const fixture = parse(
        await readFile(join(root, 'examples', 'billing', 'billing.yaml'), 'utf8'),
      ) as Record<string, unknown[]>;
      expect(collections).toStrictEqual(
        Object.fromEntries(
          Object.entries(fixture).map(([name, records]) => [name, records.length]),
        ),
      );
      // The spec declares no /healthz, /openapi.json: the server's own answer there too.
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      const document = (await (await fetch(`${origin}/openapi.json`)).json()) as {
        info: { title: string };
        servers: { url: string }[];
      };
      expect(document.info.title).toBe(
        (
          parse(await readFile(join(root, 'examples', 'billing', 'openapi.yaml'), 'utf8')) as {
            info: { title: string };
          }
        ).info.title,
      );
      expect(document.servers).toStrictEqual([{ url: origin, description: 'This stockmock' }]);
    } finally {
      await served.stop();
    }
  });
});

describe('the Kubernetes example', () => {
  it('routes each session to one replica: the Ingress hashes the session header onto the Service', async () => {
    const [, , service, ingress] = await manifests();
    expect(ingress?.kind).toBe('Ingress');
    const metadata = ingress?.metadata as { annotations: Record<string, string> };
    // ingress-nginx's name for a request header: $http_ and the name, lower case, `-` as `_`.
    expect(metadata.annotations['nginx.ingress.kubernetes.io/upstream-hash-by']).toBe(
      `$http_${SESSION_HEADER.toLowerCase().replaceAll('-', '_')}`,
    );
    const rules = (ingress?.spec as { rules: { http: { paths: { backend: unknown }[] } }[] }).rules;
    expect(rules[0]?.http.paths[0]?.backend).toStrictEqual({
      service: { name: (service?.metadata as { name: string }).name, port: { name: 'http' } },
    });
  });

  it("has a Service in front of replicas whose probes ask the server's own health on the served port", async () => {
    const [configMap, deployment, service] = await manifests();
    expect([configMap?.kind, deployment?.kind, service?.kind]).toEqual([
      'ConfigMap',
      'Deployment',
      'Service',
    ]);
    const spec = deployment?.spec as Deployment;
    expect(spec.replicas).toBeGreaterThanOrEqual(2);
    const labels = spec.template.metadata.labels;
    expect(spec.selector.matchLabels).toStrictEqual(labels);
    expect((service?.spec as { selector: unknown }).selector).toStrictEqual(labels);
    const [container] = spec.template.spec.containers;
    const port = container?.ports.find((candidate) => candidate.name === 'http');
    expect(port?.containerPort).toBe(Number(instructions(runtime, 'EXPOSE')[0]));
    for (const probe of [container?.readinessProbe, container?.livenessProbe]) {
      expect(probe?.httpGet).toStrictEqual({ path: '/__stockmock/health', port: 'http' });
    }
    expect(spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    // The config it names is a key of the ConfigMap, mounted where the variable says.
    const mount = container?.volumeMounts[0];
    const volume = spec.template.spec.volumes.find((candidate) => candidate.name === mount?.name);
    expect(volume?.configMap.name).toBe((configMap?.metadata as { name: string }).name);
    const configPath = container?.env.find((variable) => variable.name === 'STOCKMOCK_CONFIG');
    expect(configPath?.value).toBe(`${mount?.mountPath ?? ''}/stockmock.config.yaml`);
    expect(Object.keys(await configMapData())).toContain('stockmock.config.yaml');
  });
});

interface Deployment {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: {
    metadata: { labels: Record<string, string> };
    spec: {
      securityContext: { runAsNonRoot: boolean };
      containers: {
        ports: { name: string; containerPort: number }[];
        env: { name: string; value: string }[];
        volumeMounts: { name: string; mountPath: string }[];
        readinessProbe: { httpGet: unknown };
        livenessProbe: { httpGet: unknown };
      }[];
      volumes: { name: string; configMap: { name: string } }[];
    };
  };
}

async function manifests(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(root, 'deploy/kubernetes/stockmock.yaml'), 'utf8');
  return parseAllDocuments(text).map((document) => document.toJS() as Record<string, unknown>);
}

async function configMapData(): Promise<Record<string, string>> {
  const [configMap] = await manifests();
  return configMap?.['data'] as Record<string, string>;
}

interface Started {
  readonly port: number;
  log(): string;
  stop(): Promise<void>;
}

/** The runtime stage's CMD, with its ENV and the given variables (as `docker run -e`). */
async function startImage(variables: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const [command = '', ...args] = JSON.parse(instructions(runtime, 'CMD')[0] ?? '[]') as string[];
  const env = {
    ...process.env,
    ...runtimeEnv(),
    ...variables,
    STOCKMOCK_PORT: String(port),
    PATH: pathWithThisNode(),
  };
  const child = spawn(command, args, { cwd: appOf.get(runtime.name), env });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return {
    port,
    log: () => log,
    stop: async () => {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The image's HEALTHCHECK command passes once the server is up. */
async function expectHealthy(port: number): Promise<void> {
  const check = (instructions(runtime, 'HEALTHCHECK')[0] ?? '').replace(/^.*?\bCMD\s+/, '');
  const env = {
    ...process.env,
    ...runtimeEnv(),
    STOCKMOCK_PORT: String(port),
    PATH: pathWithThisNode(),
  };
  await expect
    .poll(
      async () =>
        run('sh', ['-c', check], { env }).then(
          () => 'healthy',
          () => 'not yet',
        ),
      { timeout: 30_000, interval: 250 },
    )
    .toBe('healthy');
}
