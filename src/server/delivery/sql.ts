/** Lists travel to D1 as one JSON parameter, read with `json_each`: one statement whatever the list's length. */
export const jsonIds = (ids: readonly number[]): string => JSON.stringify(ids);

/** `IN` the JSON list bound as ?1. */
export const IN_IDS = 'IN (SELECT value FROM json_each(?1))';
