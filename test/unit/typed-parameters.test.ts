/**
 * Query parameters are read as their schemas type them (issue 38, item 1): decimals as JSON
 * writes them, booleans, text with an enum or a format, and arrays by their `style` and
 * `explode`; declared filters then bound decimals and dates, and match any of several values.
 * The expected items are worked out here from the fixture each test writes.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { serveList } from '../helpers/serve-list.ts';
import { orderValueOf } from '../../src/query/order-value.ts';
import { createParameterParser } from '../../src/spec/parameter-parser.ts';

describe('a number parameter', () => {
  const parse = createParameterParser(
    [{ name: 'at_least', in: 'query', schema: { type: 'number', minimum: 0 } }],
    'reject',
  );
  it.each([
    ['99.99', 99.99],
    ['100', 100],
    ['1e3', 1000],
    ['2.5E-1', 0.25],
    ['012.5', 12.5],
    ['0', 0],
  ])('reads %s as %d', (text, value) => {
    const result = parse({ query: { at_least: text }, path: {} });
    expect(result.ok && result.values.get('at_least')).toBe(value);
  });

  it.each(['abc', '1.', '.5', 'Infinity', 'NaN', '0x10', '1e999', ' 1', '', '1,5', '-1'])(
    'refuses %j, naming the parameter',
    (text) => {
      const result = parse({ query: { at_least: text }, path: {} });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.issues.map((issue) => issue.parameter)).toEqual(['at_least']);
    },
  );
});

describe('min and max filters on a decimal field', () => {
  it('keep the items within the bounds, given as decimals, inclusive', async () => {
    const prices = [0.5, 9.99, 10, 10.01, 99.99, 100, 250.25];
    const mock = await serveList(
      'items',
      `items:\n${prices.map((price, i) => `  - { id: ${String(i + 1)}, price: ${String(price)} }`).join('\n')}\n`,
      [
        'openapi: 3.1.0',
        "info: { title: decimals, version: '1' }",
        'x-stockmock-collections:',
        '  items:',
        '    key: id',
        '    record:',
        '      type: object',
        '      required: [id, price]',
        '      properties:',
        '        id: { type: integer, minimum: 1 }',
        '        price: { type: number, minimum: 0 }',
        'paths:',
        '  /items:',
        '    get:',
        '      operationId: listItems',
        '      security: []',
        '      x-stockmock:',
        '        collection: items',
        '        filters:',
        '          price_min: { field: price, match: min }',
        '          price_max: { field: price, match: max }',
        '        view: { fields: { id: id, price: price } }',
        '      parameters:',
        '        - { name: price_min, in: query, schema: { type: number } }',
        '        - { name: price_max, in: query, schema: { type: number } }',
        '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 10 } }',
        '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
        '      responses:',
        "        '200': { description: a page }",
        '',
      ],
    );
    try {
      const { ids } = mock;
      const within = (low: number, high: number) =>
        prices.flatMap((price, i) => (price >= low && price <= high ? [i + 1] : []));
      expect(await ids('price_min=9.99')).toStrictEqual(within(9.99, Infinity));
      expect(await ids('price_max=10.005')).toStrictEqual(within(-Infinity, 10.005));
      expect(await ids('price_min=10&price_max=1e2')).toStrictEqual(within(10, 100));
      expect((await fetch(`${mock.url}/items?price_min=ten`)).status).toBe(400);
    } finally {
      await mock.close();
    }
  });
});

describe('a boolean parameter', () => {
  const parse = createParameterParser(
    [{ name: 'active', in: 'query', schema: { type: 'boolean' } }],
    'reject',
  );
  it.each([
    ['true', true],
    ['false', false],
  ])('reads %s', (text, value) => {
    const result = parse({ query: { active: text }, path: {} });
    expect(result.ok && result.values.get('active')).toBe(value);
  });
  it.each(['TRUE', '1', 'yes', '', 'true '])('refuses %j', (text) => {
    const result = parse({ query: { active: text }, path: {} });
    expect(!result.ok && result.issues.map((issue) => issue.parameter)).toEqual(['active']);
  });
});

describe('text with an enum or a format', () => {
  const parse = createParameterParser(
    [
      { name: 'state', in: 'query', schema: { type: 'string', enum: ['open', 'paid'] } },
      { name: 'on', in: 'query', schema: { type: 'string', format: 'date' } },
      { name: 'at', in: 'query', schema: { type: 'string', format: 'date-time' } },
      { name: 'ref', in: 'query', schema: { type: 'string', format: 'uuid' } },
    ],
    'reject',
  );
  it('keeps values the schema allows', () => {
    const result = parse({
      query: {
        state: 'paid',
        on: '2024-02-29',
        at: '2024-03-01T10:00:00+02:00',
        ref: '0b7c6a8e-5f7e-4d3a-9a51-6a2f4f0d9c11',
      },
      path: {},
    });
    expect(result.ok).toBe(true);
  });
  it.each([
    ['state', 'PAID'],
    ['on', '2023-02-29'],
    ['on', '2024-3-1'],
    ['at', '2024-03-01T10:00:00'],
    ['at', '2024-03-01'],
    ['ref', 'not-a-uuid'],
  ])('refuses %s=%j, naming it', (name, text) => {
    const result = parse({ query: { [name]: text }, path: {} });
    expect(!result.ok && result.issues.map((issue) => issue.parameter)).toEqual([name]);
  });
});

describe('an array parameter', () => {
  const items = { type: 'integer', minimum: 1 } as const;
  const exploded = createParameterParser(
    [{ name: 'id', in: 'query', schema: { type: 'array', items, maxItems: 3 } }],
    'reject',
  );
  const joined = createParameterParser(
    [{ name: 'id', in: 'query', explode: false, schema: { type: 'array', items } }],
    'reject',
  );
  const piped = createParameterParser(
    [{ name: 'id', in: 'query', style: 'pipeDelimited', schema: { type: 'array', items } }],
    'reject',
  );
  const valueOf = (result: ReturnType<typeof exploded>) =>
    result.ok ? result.values.get('id') : result.issues.map((issue) => issue.message);

  it('reads one pair per item when exploded (form style by default)', () => {
    expect(valueOf(exploded({ query: { id: ['3', '1'] }, path: {} }))).toStrictEqual([3, 1]);
    expect(valueOf(exploded({ query: { id: '7' }, path: {} }))).toStrictEqual([7]);
  });
  it('reads items a comma divides when not exploded, and a pipe for pipeDelimited', () => {
    expect(valueOf(joined({ query: { id: '3,1,2' }, path: {} }))).toStrictEqual([3, 1, 2]);
    expect(valueOf(piped({ query: { id: '3|1' }, path: {} }))).toStrictEqual([3, 1]);
  });
  it('names the item that is wrong, counted from 1', () => {
    expect(valueOf(joined({ query: { id: '3,x' }, path: {} }))).toStrictEqual([
      'item 2 must be an integer, not "x"',
    ]);
    expect(valueOf(exploded({ query: { id: ['3', '0'] }, path: {} }))).toStrictEqual([
      'item 2 must be >= 1',
    ]);
  });
  it('holds the array to its own schema, and a joined one to one pair', () => {
    expect(valueOf(exploded({ query: { id: ['1', '2', '3', '4'] }, path: {} }))).toHaveLength(1);
    expect(valueOf(joined({ query: { id: ['1', '2'] }, path: {} }))).toHaveLength(1);
  });
});

describe('filters over typed parameters', () => {
  /** Orders as the fixture gives them: each test's expectation reads these, not the server. */
  const orders = [
    { id: 1, paid: true, state: 'open', placed: '2024-02-29T23:30:00-01:00', due: '2024-03-01' },
    { id: 2, paid: false, state: 'paid', placed: '2024-03-01T00:00:00Z', due: '2024-03-02' },
    { id: 3, paid: true, state: 'sent', placed: '2024-03-01T23:59:59.999Z', due: '2024-03-01' },
    { id: 4, paid: false, state: 'open', placed: '2024-03-02T00:00:00+00:00', due: '2024-02-28' },
    { id: 5, paid: true, state: 'paid', placed: '2024-03-02T01:30:00+02:00', due: '2024-03-05' },
  ];
  const instant = (text: string) => Date.parse(text);

  it('match booleans, any of several values, and dates within bounds', async () => {
    const mock = await serveList(
      'orders',
      `orders:\n${orders.map((order) => `  - ${JSON.stringify(order)}`).join('\n')}\n`,
      [
        'openapi: 3.1.0',
        "info: { title: typed, version: '1' }",
        'x-stockmock-collections:',
        '  orders:',
        '    key: id',
        '    record:',
        '      type: object',
        '      required: [id, paid, state, placed, due]',
        '      properties:',
        '        id: { type: integer, minimum: 1 }',
        '        paid: { type: boolean }',
        '        state: { type: string, enum: [open, paid, sent] }',
        '        placed: { type: string, format: date-time }',
        '        due: { type: string, format: date }',
        'paths:',
        '  /orders:',
        '    get:',
        '      security: []',
        '      x-stockmock:',
        '        collection: orders',
        '        filters:',
        '          paid: { field: paid, match: exact }',
        '          state: { field: state, match: exact }',
        '          placed_from: { field: placed, match: min }',
        '          placed_to: { field: placed, match: max }',
        '          due_before: { field: due, match: max }',
        '        view: { fields: { id: id } }',
        '      parameters:',
        '        - { name: paid, in: query, schema: { type: boolean } }',
        '        - name: state',
        '          in: query',
        '          explode: false',
        '          schema: { type: array, items: { type: string, enum: [open, paid, sent] } }',
        '        - { name: placed_from, in: query, schema: { type: string, format: date-time } }',
        '        - { name: placed_to, in: query, schema: { type: string, format: date } }',
        '        - { name: due_before, in: query, schema: { type: string, format: date } }',
        '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 2 } }',
        '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
        '      responses:',
        "        '200': { description: a page }",
        '',
      ],
    );
    try {
      const { ids } = mock;
      const where = (keep: (order: (typeof orders)[number]) => boolean) =>
        orders.filter(keep).map((order) => order.id);

      expect(await ids('paid=true')).toStrictEqual(where((order) => order.paid));
      expect(await ids('paid=false')).toStrictEqual(where((order) => !order.paid));
      expect(await ids('state=paid,sent')).toStrictEqual(
        where((order) => order.state === 'paid' || order.state === 'sent'),
      );
      expect(await ids('state=open&paid=false')).toStrictEqual(
        where((order) => order.state === 'open' && !order.paid),
      );
      // An instant however its offset writes it; a date alone as `max` takes in its whole day.
      expect(await ids('placed_from=2024-03-01T00:00:00%2B00:00')).toStrictEqual(
        where((order) => instant(order.placed) >= instant('2024-03-01T00:00:00Z')),
      );
      expect(await ids('placed_to=2024-03-01')).toStrictEqual(
        where((order) => instant(order.placed) < instant('2024-03-02T00:00:00Z')),
      );
      expect(await ids('due_before=2024-03-01')).toStrictEqual(
        where((order) => order.due <= '2024-03-01'),
      );

      const refused = await fetch(`${mock.url}/orders?state=open,shipped&paid=maybe`);
      expect(refused.status).toBe(400);
      const problem = (await refused.json()) as { errors: { parameter: string }[] };
      expect(problem.errors.map((error) => error.parameter).sort()).toStrictEqual([
        'paid',
        'state',
      ]);

      // Links repeat the filters as the spec writes them: one pair, items a comma divides.
      const paged = (await (await fetch(`${mock.url}/orders?state=open,paid`)).json()) as {
        links: { next: string | null };
      };
      expect(paged.links.next).toContain('state=open%2Cpaid&');
      const next = await fetch(paged.links.next ?? '');
      expect(
        ((await next.json()) as { data: { id: number }[] }).data.map((o) => o.id),
      ).toStrictEqual(
        where((order) => order.state === 'open' || order.state === 'paid').slice(2, 4),
      );
    } finally {
      await mock.close();
    }
  });
});

describe('a date-time bound written with an offset without its colon', () => {
  it('is read as the instant it names, as with the colon', () => {
    // 2024-03-20T00:00:00 at UTC+2 is 2024-03-19T22:00:00Z.
    const instant = Date.UTC(2024, 2, 19, 22, 0, 0);
    for (const written of [
      '2024-03-20T00:00:00+02:00',
      '2024-03-20T00:00:00+0200',
      '2024-03-20T00:00:00+02',
      '2024-03-19T22:00:00Z',
    ]) {
      expect(orderValueOf(written), written).toBe(instant);
    }
    expect(orderValueOf('2024-03-19T20:30:00-0130')).toBe(instant);
    expect(orderValueOf('2024-03-20T00:00:00+2')).toBeUndefined();
  });
});

describe('a date-time with more fraction digits than milliseconds', () => {
  it('keeps them: a bound a tenth of a millisecond later is later', () => {
    const at = (text: string) => orderValueOf(text) ?? Number.NaN;
    expect(at('2026-05-01T10:00:48.6431Z')).toBeGreaterThan(at('2026-05-01T10:00:48.643Z'));
    expect(at('2026-05-01T10:00:48.6429Z')).toBeLessThan(at('2026-05-01T10:00:48.643Z'));
    expect(at('2026-05-01T10:00:48.643000Z')).toBe(at('2026-05-01T10:00:48.643Z'));
    expect(at('2026-05-01T12:00:48.6431+02:00')).toBe(at('2026-05-01T10:00:48.6431Z'));
  });

  it('is kept by a min filter only when it is not earlier than the bound', async () => {
    const mock = await startStockmock({
      config: fileURLToPath(
        new URL('../../examples/events/stockmock.config.yaml', import.meta.url),
      ),
    });
    try {
      const ask = async (query: string) => {
        const response = await fetch(`${mock.url}/v1/events?pageSize=100&${query}`, {
          headers: { authorization: 'Bearer organizer-demo-token' },
        });
        return ((await response.json()) as { items: { id: string; startsAt: string }[] }).items;
      };
      const [event] = await ask('sort=startsAt');
      const whole = /^(.*T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-].*)$/.exec(event?.startsAt ?? '');
      expect(whole).not.toBeNull();
      const [, seconds = '', fraction = '.000', zone = ''] = whole ?? [];
      // A ten-thousandth of a second after the event starts: the event is earlier than the bound.
      const later = `${seconds}${fraction.padEnd(4, '0')}1${zone}`;
      const kept = await ask(`starts_after=${encodeURIComponent(later)}`);
      expect(kept.map((one) => one.id)).not.toContain(event?.id);
      const atIt = await ask(`starts_after=${encodeURIComponent(event?.startsAt ?? '')}`);
      expect(atIt.map((one) => one.id)).toContain(event?.id);
    } finally {
      await mock.close();
    }
  });
});
