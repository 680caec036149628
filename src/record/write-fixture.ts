/** @module A recording as a fixture file: a line per record, streamed, so that none is held twice. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { formatFixtureLine } from '../generate/format-fixture.ts';
import type { RecordedCollection } from './recorded-collection.ts';
import type { Redactor } from './redact.ts';

/**
 * Writes each collection under its name, a record a line (JSON, which is YAML too, and which
 * stockmock reads ten times faster than other YAML). `heading` comes first, as comments.
 */
export async function writeFixture(
  collections: readonly RecordedCollection[],
  out: Writable,
  heading: readonly string[],
  redactorFor: (collection: RecordedCollection) => Redactor | undefined = () => undefined,
): Promise<number> {
  let written = 0;
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await put(heading.map((line) => `# ${line}\n`).join(''));
  for (const collection of collections) {
    const { name } = collection.declaration;
    if (collection.size === 0) {
      await put(`${name}: []\n`);
      continue;
    }
    await put(`${name}:\n`);
    // Lines are gathered a few hundred at a time: a write per line is most of the time.
    let chunk = '';
    for (const record of collection.records(redactorFor(collection))) {
      chunk += formatFixtureLine(record);
      written += 1;
      if (chunk.length > 1 << 16) {
        await put(chunk);
        chunk = '';
      }
    }
    await put(chunk);
  }
  return written;
}
