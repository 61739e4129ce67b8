import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GENERATION_CONFIG, type GenerationConfig } from '../../generation.config';
import { GenerationPricing } from './generation-pricing';
import { PricesResponse } from './prices.response';

/**
 * `GET /v1/oscu/prices` — public, as upstream (no security): the packs of
 * creative units the operator sells (CREATIVE_UNITS_PRICES; none by default)
 * and, beside them, what each generation mode costs in creative units under
 * this process's cost table (docs/credits.md, "Prices").
 */
@ApiTags('credits')
@Controller('oscu/prices')
export class PricesController {
  constructor(
    @Inject(GENERATION_CONFIG) private readonly config: GenerationConfig,
    private readonly pricing: GenerationPricing,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'GetPublicOscuPrices',
    summary: 'Creative-unit packs for sale and the creative-unit cost rates of every generation mode (public)',
  })
  @ApiOkResponse({ type: PricesResponse })
  get() {
    return { prices: this.config.CREATIVE_UNITS_PRICES, creativeUnitsCosts: this.pricing.rates() };
  }
}
