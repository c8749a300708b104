import { Controller, Get, Public, Version } from '../runtime/decorators.js';

/** What an API address answers about itself. */
export interface ApiDescription {
  /** The API's name. */
  name: string;
  /** The version that answered, or null for an unversioned route. */
  version: string | null;
}

const NAME = 'resource-service demo';

/**
 * Unversioned: `GET /meta` stays reachable whatever version a caller states, and a caller who
 * states none is answered here even when a default version is configured (spec §9.3).
 */
@Controller('meta')
export class MetaController {
  /** Describes the API without a version. */
  @Get()
  @Public()
  describe(): ApiDescription {
    return { name: NAME, version: null };
  }
}

/**
 * A versioned controller at path `/` (spec §9.3: it still selects): `GET /v1`, `GET /v2`, and
 * under version 2 `GET /v2/meta`, which beats the unversioned `GET /meta` when version 2 is stated.
 */
@Controller({ version: ['1', '2'] })
export class ApiRootController {
  /** The root of version 1. */
  @Get()
  @Version('1')
  @Public()
  rootV1(): ApiDescription {
    return { name: NAME, version: '1' };
  }

  /** The root of version 2. */
  @Get()
  @Version('2')
  @Public()
  rootV2(): ApiDescription {
    return { name: NAME, version: '2' };
  }

  /** Version 2's description, at the same address as the unversioned one. */
  @Get('meta')
  @Version('2')
  @Public()
  metaV2(): ApiDescription {
    return { name: NAME, version: '2' };
  }
}
