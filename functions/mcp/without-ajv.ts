/**
 * Stands in for the MCP SDK's Ajv validator in the worker bundle (astro.config.mjs aliases it here). The SDK's
 * server imports Ajv as its default validator even when another is given; Workers forbid Ajv's code
 * generation anyway, and the board's server always passes CfWorkerJsonSchemaValidator (functions/mcp/server.ts).
 * Dropping Ajv keeps some 40 KiB gzip out of every request's isolate.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('Ajv is not bundled in the worker: give the MCP server CfWorkerJsonSchemaValidator.');
  }
}
