/**
 * @module Access levels: what a bearer token grants. Their names come from the spec's views
 * (`x-stockmock` … `views`), each level seeing its own view of the records; the config grants
 * them to tokens. The shipped spec has two, `status` and `quantity`.
 */

/** An access level's name, as the spec's views and the config's tokens write it. */
export type AccessLevel = string;

/** What a level's name may be: a word, so that logs and journals can print it as it is. */
export const ACCESS_LEVEL_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';
