import { z } from 'zod';
import { ApiTags, Body, Controller, Get, HttpCode, Injectable, Post, Public, ZodValidationPipe } from 'resource-service';

/** What an API address answers about itself. */
export interface ApiDescription {
  /** The API's name. */
  name: string;
  /** The version that answered, or null for an unversioned route. */
  version: string | null;
}

/** What a client sends to agree on a version: the versions it can speak. */
export interface VersionOffer {
  /** Version tokens the client understands, in any order. */
  versions: string[];
}

/** Validation pipe schema for {@link VersionOffer}: 1..16 valid version tokens (docs/behaviour.md §8). */
export const VersionOfferSchema = z.object({
  versions: z
    .array(z.string().regex(/^[A-Za-z0-9.-]{1,32}$/, 'a version is alphanumerics, "." and "-", at most 32 bytes'))
    .min(1, 'offer at least one version')
    .max(16, 'offer at most 16 versions'),
}) satisfies z.core.$ZodType<VersionOffer>;

/** The versions the demo's controllers declare, lowest first. */
const API_VERSIONS: readonly string[] = ['1', '2'];

/** Describes the API; shared by the unversioned controller and one controller per version. */
@Injectable()
export class ApiInfoService {
  /** The description answered under `version` (null: unversioned). */
  describe(version: string | null): ApiDescription {
    return { name: 'resource-service demo', version };
  }

  /** The highest version both the API and `offer` speak (null: none in common). */
  negotiate(offer: VersionOffer): ApiDescription {
    const common = API_VERSIONS.filter((version) => offer.versions.includes(version));
    return this.describe(common.at(-1) ?? null);
  }
}

/**
 * What the API is, and which of its versions to speak.
 *
 * @privateRemarks
 * Unversioned. `GET /meta` answers a caller who states no version, even when a default version is
 * configured; a stated version selects `ApiRootV2Controller.meta` instead (docs/behaviour.md §9.3.2).
 * `POST /meta` has no versioned twin, so it answers whatever version is stated (docs/behaviour.md §9.3.1:
 * decided per route — method and path — not per address). The root controllers below share its
 * tag, so the documents list the API's own routes together.
 */
@ApiTags('API')
@Controller('meta')
export class MetaController {
  constructor(private readonly info: ApiInfoService) {}

  /** Describes the API, without a version. */
  @Get()
  @Public()
  describe(): ApiDescription {
    return this.info.describe(null);
  }

  /** Agrees on a version: the highest one the caller offers that the API serves. */
  @Post()
  @HttpCode(200)
  @Public()
  negotiate(@Body(new ZodValidationPipe(VersionOfferSchema)) offer: VersionOffer): ApiDescription {
    return this.info.negotiate(offer);
  }
}

/**
 * @privateRemarks
 * Version 1's root, a versioned controller at path `/` (docs/behaviour.md §9.3: it still selects): `GET /v1`.
 */
@ApiTags('API')
@Controller({ version: '1' })
export class ApiRootV1Controller {
  constructor(private readonly info: ApiInfoService) {}

  /** Describes the API under version 1. */
  @Get()
  @Public()
  root(): ApiDescription {
    return this.info.describe('1');
  }
}

/**
 * @privateRemarks
 * Version 2's root, another controller sharing the same service (docs/behaviour.md §9.1): `GET /v2`, and
 * `GET /v2/meta`, which beats the unversioned `GET /meta` when version 2 is stated.
 */
@ApiTags('API')
@Controller({ version: '2' })
export class ApiRootV2Controller {
  constructor(private readonly info: ApiInfoService) {}

  /** Describes the API under version 2. */
  @Get()
  @Public()
  root(): ApiDescription {
    return this.info.describe('2');
  }

  /**
   * Describes the API under version 2.
   *
   * @privateRemarks
   * At the same address as the unversioned description, which it beats when version 2 is stated.
   */
  @Get('meta')
  @Public()
  meta(): ApiDescription {
    return this.info.describe('2');
  }
}
