/**
 * @module The interface's pagination convention: every list takes a page number and a page
 * size by these names, "whatever the number of items" (the Stock Service Interface).
 */
export const PAGE_PARAMETER = 'page';
export const LIMIT_PARAMETER = 'limit';
