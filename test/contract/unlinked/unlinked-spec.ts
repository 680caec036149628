/**
 * The billing example's spec with the invoice list's envelope cut down to `{items, meta: {total}}`
 * (no page, no limit, no links): a list paged by the `page` and `limit` query parameters alone, as
 * many real APIs page.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const example = fileURLToPath(new URL('../../../examples/billing/', import.meta.url));

/** Writes the link-less variant of examples/billing/openapi.yaml into `dir`; returns its path. */
export async function unlinkedSpec(dir: string): Promise<string> {
  const text = await readFile(join(example, 'openapi.yaml'), 'utf8');
  const envelope = [
    '        envelope:',
    '          items: items',
    '          total: meta.total',
    '          page: meta.page',
    '          limit: meta.limit',
    '          links: links',
  ].join('\n');
  const schema =
    /( {16})required: \[items, meta, links\][\s\S]*?links: \{ \$ref: '#\/components\/schemas\/Links' \}\n/;
  if (!text.includes(envelope) || !schema.test(text)) throw new Error('the example changed');
  const changed = text
    .replace(envelope, '        envelope: { items: items, total: meta.total }')
    .replace(
      schema,
      [
        '                required: [items, meta]',
        '                additionalProperties: false',
        '                properties:',
        '                  items:',
        '                    type: array',
        "                    items: { $ref: '#/components/schemas/Invoice' }",
        '                  meta:',
        '                    type: object',
        '                    required: [total]',
        '                    additionalProperties: false',
        '                    properties: { total: { type: integer, minimum: 0 } }',
        '',
      ].join('\n'),
    );
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, changed);
  return file;
}
