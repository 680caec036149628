/**
 * The spec's declarations: what the shipped spec declares, and every way a spec can declare
 * something that cannot be served, each refused with file, line and field.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError, type SourceIssue } from '../../src/problems/source-error.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec, SHIPPED_SPEC } from '../../src/spec/load-spec.ts';
import { SHIPPED } from '../helpers/datasets.ts';

const shippedText = await readFile(SHIPPED_SPEC, 'utf8');

/** The shipped spec with one piece of text replaced (which must be there), as a file. */
async function specWith(from: string, to: string): Promise<string> {
  expect(shippedText).toContain(from);
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-spec-'));
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, shippedText.replace(from, to));
  return file;
}

/** The issues reading the declarations of a spec file raises. */
async function issuesOf(file: string, strict = false): Promise<readonly SourceIssue[]> {
  const spec = await loadSpec(file);
  try {
    readDeclarations(spec, { strict });
  } catch (error) {
    if (error instanceof SourceError) return error.issues;
    throw error;
  }
  return [];
}

/** The line of the first occurrence of a text in the changed spec. */
function lineOf(text: string, changed: string): number {
  return changed.slice(0, changed.indexOf(text)).split('\n').length;
}

const LIST_STOCK = `      x-stockmock:
        collection: products
        filters:`;

describe('the shipped declarations', () => {
  it('serve stock and products as lists and items from one collection, and the meta routes', () => {
    expect([...SHIPPED.collections.keys()]).toEqual(['products']);
    expect(Object.fromEntries([...SHIPPED.operations].map(([id, d]) => [id, d.kind]))).toEqual({
      listStock: 'list',
      getStock: 'item',
      listProducts: 'list',
      getProduct: 'item',
      getHealth: 'health',
      getOpenApiJson: 'document',
      getOpenApiYaml: 'document',
    });
    expect(SHIPPED.levels).toEqual(['status', 'quantity']);
    const listStock = SHIPPED.operations.get('listStock');
    const scalar = (type: string) => ({ kind: 'scalar', scalar: type });
    expect(listStock?.kind === 'list' ? listStock.filters : []).toEqual([
      { parameter: 'name', shape: scalar('string'), field: 'name', match: 'contains' },
      { parameter: 'id', shape: scalar('integer'), field: 'id', match: 'exact' },
      { parameter: 'status', shape: scalar('string'), field: 'status', match: 'exact' },
    ]);
  });
});

describe('a declaration that cannot be served is refused with file, line and field', () => {
  it('a query parameter that no filter honours (a new filter added to the spec only)', async () => {
    const file = await specWith(
      `        - $ref: '#/components/parameters/StatusFilter'\n`,
      `        - $ref: '#/components/parameters/StatusFilter'\n        - { name: category, in: query, schema: { type: string } }\n`,
    );
    const issues = await issuesOf(file);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.file).toBe(file);
    expect(issues[0]?.field).toBe('paths./v1/stock.get.x-stockmock.filters');
    expect(issues[0]?.message).toMatch(/query parameter category .* no filter honours it/);
    const changed = await readFile(file, 'utf8');
    expect(issues[0]?.at?.line).toBe(
      lineOf('          name: { field: name, match: contains }', changed),
    );
  });

  it('an operation that declares nothing is answered from examples, and refused under strict', async () => {
    const file = await specWith(
      '  /healthz:\n',
      `  /v1/warehouses:
    get:
      operationId: listWarehouses
      responses:
        '200':
          description: Warehouses.
  /healthz:\n`,
    );
    expect(await issuesOf(file)).toStrictEqual([]);
    const issues = await issuesOf(file, true);
    expect(issues.map((issue) => [issue.field, issue.at?.line])).toEqual([
      [
        'paths./v1/warehouses.get',
        lineOf('      operationId: listWarehouses', await readFile(file, 'utf8')),
      ],
    ]);
    expect(issues[0]?.message).toMatch(/listWarehouses.*has no `x-stockmock` data.*strict/);
  });

  it("a GET's declaration on an operation that is not a GET", async () => {
    const file = await specWith(
      '  /healthz:\n',
      `  /v1/warehouses:
    post:
      operationId: addWarehouse
      x-stockmock: { collection: products }
      responses:
        '201':
          description: Added.
  /healthz:\n`,
    );
    const issues = await issuesOf(file);
    const line = lineOf(
      '      x-stockmock: { collection: products }',
      await readFile(file, 'utf8'),
    );
    expect(issues.map((issue) => [issue.field, issue.at?.line])).toEqual([
      ['paths./v1/warehouses.post.x-stockmock.write', line],
      ['paths./v1/warehouses.post.x-stockmock', line],
    ]);
    expect(issues.map((issue) => issue.message)).toEqual([
      'is required',
      expect.stringMatching(/not known here; known: write/),
    ]);
  });

  it('a write declared where no list or item is declared', async () => {
    const file = await specWith(
      '  /healthz:\n',
      `  /v1/warehouses:
    post:
      operationId: addWarehouse
      x-stockmock: { write: create }
      responses:
        '201':
          description: Added.
  /healthz:\n`,
    );
    const issues = await issuesOf(file);
    expect(issues.map((issue) => [issue.field, issue.at?.line])).toEqual([
      [
        'paths./v1/warehouses.post.x-stockmock',
        lineOf('      x-stockmock: { write: create }', await readFile(file, 'utf8')),
      ],
    ]);
    expect(issues[0]?.message).toMatch(
      /^POST \/v1\/warehouses: a write is served on the path of a declared list or item/,
    );
  });

  it.each([
    [
      'a filter on a field the record does not declare',
      `${LIST_STOCK}\n          name: { field: name, match: contains }`,
      `${LIST_STOCK}\n          name: { field: title, match: contains }`,
      'paths./v1/stock.get.x-stockmock.filters.name.field',
      /title is not a field of products/,
    ],
    [
      'a substring match on a number',
      `${LIST_STOCK}\n          name: { field: name, match: contains }\n          id: { field: id, match: exact }`,
      `${LIST_STOCK}\n          name: { field: name, match: contains }\n          id: { field: id, match: contains }`,
      'paths./v1/stock.get.x-stockmock.filters.id.match',
      /contains needs a string field/,
    ],
    [
      'a range on a string',
      `${LIST_STOCK}\n          name: { field: name, match: contains }`,
      `${LIST_STOCK}\n          name: { field: name, match: min }`,
      'paths./v1/stock.get.x-stockmock.filters.name.match',
      /min needs a number field and a number parameter/,
    ],
    [
      'a match the engine does not have',
      `${LIST_STOCK}\n          name: { field: name, match: contains }`,
      `${LIST_STOCK}\n          name: { field: name, match: regex }`,
      'paths./v1/stock.get.x-stockmock.filters.name.match',
      /must be one of exact, contains, min, max/,
    ],
    [
      'a view of a field the record does not declare',
      'status: { fields: { product_id: id, status: status } }',
      'status: { fields: { product_id: id, status: state } }',
      'paths./v1/stock.get.x-stockmock.views.status.fields.status',
      /state is not a field of products/,
    ],
    [
      'views by level on an operation open to all',
      '      operationId: getStock\n',
      '      operationId: getStock\n      security: []\n',
      'paths./v1/stock/{id}.get.x-stockmock.views',
      /open to all \(security: \[\]\) knows no access level/,
    ],
    [
      'a renamed member in a view with the rest of the record',
      'view: { fields: { id: id, name: name }, rest: true, omit: [quantity, status] }',
      'view: { fields: { id: id, title: name }, rest: true, omit: [quantity, status] }',
      'paths./v1/products.get.x-stockmock.view.fields.title',
      /a view with `rest` shows each field under its own name \(name, not title\)/,
    ],
    [
      'a collection that is not declared',
      '        collection: products\n        item: id\n        views:',
      '        collection: product\n        item: id\n        views:',
      'paths./v1/stock/{id}.get.x-stockmock.collection',
      /names no declared collection \(product\)/,
    ],
    [
      'an item parameter the path does not have',
      '        collection: products\n        item: id\n        views:',
      '        collection: products\n        item: productId\n        views:',
      'paths./v1/stock/{id}.get.x-stockmock.item',
      /names no path parameter/,
    ],
    [
      'a key that is not a required integer or string field',
      '    key: id\n    label: name',
      '    key: quantity\n    label: name',
      'x-stockmock-collections.products.key',
      /must name a required integer or string field/,
    ],
    [
      'a derivation from a field that is not a number',
      '        from: quantity',
      '        from: name',
      'x-stockmock-collections.products.derive.status.from',
      /must name a number field/,
    ],
  ])('%s', async (_title, from, to, field, message) => {
    const file = await specWith(from, to);
    const issues = await issuesOf(file);
    const issue = issues.find((candidate) => candidate.field === field);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue?.message).toMatch(message);
    expect(issue?.at?.line).toBeGreaterThan(1);
  });
});

describe('spec rules that routing needs, refused with file and line', () => {
  it('a duplicate operationId, naming both places', async () => {
    const file = await specWith('operationId: getStock', 'operationId: listStock');
    const changed = await readFile(file, 'utf8');
    const issues = await issuesOf(file);
    const duplicate = issues.find((issue) => issue.message.includes('operationId'));
    expect(duplicate?.file).toBe(file);
    const first = changed.indexOf('operationId: listStock');
    const second = changed.indexOf('operationId: listStock', first + 1);
    expect(duplicate?.at?.line).toBe(changed.slice(0, second).split('\n').length);
    expect(duplicate?.message).toBe(
      `operationId "listStock" is also that of GET /v1/stock (line ${String(lineOf('operationId: listStock', changed))}): operationIds must be unique`,
    );
  });

  it.each([['{i d/../x}'], ['{id/x}'], ['{}'], ['{id}}'], ['{a..b}'], ['{.id}']])(
    'a path template that RFC 6570 level 1 does not allow: /v1/stock/%s',
    async (template) => {
      const file = await specWith('  /v1/stock/{id}:\n', `  /v1/stock/${template}:\n`);
      const issues = await issuesOf(file);
      const refused = issues.find((issue) => issue.message.startsWith(`/v1/stock/${template}: `));
      expect(refused?.at?.line).toBe(
        lineOf(`  /v1/stock/${template}:`, await readFile(file, 'utf8')),
      );
    },
  );

  it('a record schema with a $ref cycle, at the member that closes it', async () => {
    const file = await specWith(
      `        status:
          $ref: '#/components/schemas/StockStatus'
      additionalProperties: true`,
      `        status:
          $ref: '#/components/schemas/StockStatus'
        parent:
          $ref: '#/components/schemas/Node'
      additionalProperties: true`,
    ).then(async (written) => {
      const text = await readFile(written, 'utf8');
      await writeFile(
        written,
        text.replace(
          '  schemas:\n',
          `  schemas:
    Node:
      type: object
      properties:
        child:
          $ref: '#/components/schemas/Node'
`,
        ),
      );
      return written;
    });
    const issues = await issuesOf(file);
    expect(issues[0]?.field).toBe(
      'x-stockmock-collections.products.record.properties.parent.properties.child',
    );
    expect(issues[0]?.message).toMatch(/^refers back to a schema that holds it \(a \$ref cycle\)/);
    expect(issues[0]?.at?.line).toBeGreaterThan(0);
  });
});
