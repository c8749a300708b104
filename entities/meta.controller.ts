import { Controller, Get, Injectable, Public } from '../runtime/decorators.js';

/** What an API address answers about itself. */
export interface ApiDescription {
  /** The API's name. */
  name: string;
  /** The version that answered, or null for an unversioned route. */
  version: string | null;
}

/** Describes the API; shared by the unversioned controller and one controller per version. */
@Injectable()
export class ApiInfoService {
  /** The description answered under `version` (null: unversioned). */
  describe(version: string | null): ApiDescription {
    return { name: 'resource-service demo', version };
  }
}

/**
 * Unversioned: `GET /meta` stays reachable whatever version a caller states, and a caller who
 * states none is answered here even when a default version is configured (spec §9.3).
 */
@Controller('meta')
export class MetaController {
  constructor(private readonly info: ApiInfoService) {}

  /** Describes the API without a version. */
  @Get()
  @Public()
  describe(): ApiDescription {
    return this.info.describe(null);
  }
}

/** Version 1's root, a versioned controller at path `/` (spec §9.3: it still selects): `GET /v1`. */
@Controller({ version: '1' })
export class ApiRootV1Controller {
  constructor(private readonly info: ApiInfoService) {}

  /** The root of version 1. */
  @Get()
  @Public()
  root(): ApiDescription {
    return this.info.describe('1');
  }
}

/**
 * Version 2's root, another controller sharing the same service (spec §9.1): `GET /v2`, and
 * `GET /v2/meta`, which beats the unversioned `GET /meta` when version 2 is stated.
 */
@Controller({ version: '2' })
export class ApiRootV2Controller {
  constructor(private readonly info: ApiInfoService) {}

  /** The root of version 2. */
  @Get()
  @Public()
  root(): ApiDescription {
    return this.info.describe('2');
  }

  /** Version 2's description, at the same address as the unversioned one. */
  @Get('meta')
  @Public()
  meta(): ApiDescription {
    return this.info.describe('2');
  }
}
