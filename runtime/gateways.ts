/**
 * The old path of the gateway types, kept only because generated code imports it
 * (`generated/gateways.ts`: `import type { GatewayDefinition } from '../runtime/gateways.js'`) and
 * the generator is not changed on this branch. The gateways transport lives in
 * runtime/transports/gateways/; once `generator/emit/app/gateways.ts` imports
 * `runtime/transports/gateways/index.ts` and `generated/` is regenerated, delete this file.
 */
export type { GatewayCall, GatewayDefinition, GatewayHandler } from './transports/gateways/index.js';
