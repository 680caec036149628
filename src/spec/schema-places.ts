/** @module Where an OpenAPI document holds its schemas, as written: the places a schema starts. */
import type { SchemaVersion } from './openapi-schema.ts';
import { HTTP_METHODS } from './operation-rules.ts';

type Members = Record<string, unknown>;

const isObject = (value: unknown): value is Members =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Calls `visit` with each schema the OpenAPI structure holds directly (components, parameters,
 * headers, media types, through path items, operations, callbacks and webhooks), never inside
 * examples or extensions, where a member named `schema` is data.
 *
 * `path` is one array, pushed and popped along the walk, that `visit` may push onto too and must
 * leave as it found it: a copy per member cost a spec of 10 000 operations twice the walk.
 */
export function eachSchemaPlace(
  document: unknown,
  version: SchemaVersion,
  visit: (schema: unknown, path: (string | number)[]) => void,
): void {
  const path: (string | number)[] = [];
  // Reference Objects are skipped: what they name is visited where it is written.
  const each = (map: unknown, walk: (value: Members) => void, skipReferences = true): void => {
    if (!isObject(map)) return;
    for (const name of Object.keys(map)) {
      const member = map[name];
      if (name.startsWith('x-') || !isObject(member)) continue;
      if (skipReferences && typeof member['$ref'] === 'string') continue;
      path.push(name);
      walk(member);
      path.pop();
    }
  };
  const eachOf = (list: unknown, walk: (value: Members) => void): void => {
    if (!Array.isArray(list)) return;
    list.forEach((member: unknown, index) => {
      if (!isObject(member) || typeof member['$ref'] === 'string') return;
      path.push(index);
      walk(member);
      path.pop();
    });
  };
  const at = (holder: Members, key: string, walk: (value: unknown) => void): void => {
    if (!(key in holder)) return;
    path.push(key);
    walk(holder[key]);
    path.pop();
  };
  const schemaOf = (holder: Members): void => {
    at(holder, 'schema', (schema) => {
      visit(schema, path);
    });
  };
  const mediaType = (media: Members): void => {
    schemaOf(media);
    at(media, 'encoding', (encodings) => {
      each(encodings, (encoding) => {
        at(encoding, 'headers', (headers) => {
          each(headers, parameter);
        });
      });
    });
  };
  const content = (holder: Members): void => {
    at(holder, 'content', (media) => {
      each(media, mediaType);
    });
  };
  const parameter = (holder: Members): void => {
    schemaOf(holder);
    content(holder);
  };
  const response = (holder: Members): void => {
    at(holder, 'headers', (headers) => {
      each(headers, parameter);
    });
    content(holder);
  };
  const callback = (holder: Members): void => {
    each(holder, pathItem);
  };
  const operation = (holder: Members): void => {
    at(holder, 'parameters', (parameters) => {
      eachOf(parameters, parameter);
    });
    at(holder, 'requestBody', (body) => {
      if (isObject(body) && typeof body['$ref'] !== 'string') content(body);
    });
    at(holder, 'responses', (responses) => {
      each(responses, response);
    });
    at(holder, 'callbacks', (callbacks) => {
      each(callbacks, callback);
    });
  };
  function pathItem(item: Members): void {
    at(item, 'parameters', (parameters) => {
      eachOf(parameters, parameter);
    });
    for (const method of HTTP_METHODS) {
      at(item, method, (held) => {
        if (isObject(held)) operation(held);
      });
    }
  }
  if (!isObject(document)) return;
  at(document, 'paths', (paths) => {
    each(paths, pathItem);
  });
  if (version === '3.1') {
    at(document, 'webhooks', (webhooks) => {
      each(webhooks, pathItem);
    });
  }
  at(document, 'components', (components) => {
    if (!isObject(components)) return;
    const named = (key: string, walk: (value: Members) => void, skipReferences = true): void => {
      at(components, key, (map) => {
        each(map, walk, skipReferences);
      });
    };
    // A named schema may be a 3.1 schema of `$ref` and siblings: visit() decides.
    named(
      'schemas',
      (schema) => {
        visit(schema, path);
      },
      false,
    );
    named('responses', response);
    named('parameters', parameter);
    named('headers', parameter);
    named('requestBodies', content);
    named('callbacks', callback);
    if (version === '3.1') named('pathItems', pathItem);
  });
}
