import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CREATIVE_UNITS_GROUPS, GENERATION_MODES } from '@genasset/contracts';

export class CreativeUnitsPackView {
  @ApiProperty({ example: 1000 }) creativeUnits!: number;
  @ApiProperty({ description: 'In the currency’s minor unit (cents)', example: 1200 }) unitAmount!: number;
  @ApiProperty({ example: 'usd' }) currency!: string;
  @ApiPropertyOptional({ description: 'Days the bought units stay valid', example: 365 }) expires?: number;
}

export class CreativeUnitsRateView {
  @ApiProperty({ enum: GENERATION_MODES }) mode!: string;
  @ApiProperty({ enum: CREATIVE_UNITS_GROUPS }) group!: string;
  @ApiProperty() perRequest!: number;
  @ApiProperty() perSample!: number;
  @ApiProperty() perMegapixel!: number;
  @ApiProperty() minimum!: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) discountPercent!: number;
}

/** Upstream `GetPublicOscuPricesResponse`, plus the product's cost rates. */
export class PricesResponse {
  @ApiProperty({ type: [CreativeUnitsPackView], description: 'Packs for sale (CREATIVE_UNITS_PRICES; none by default)' })
  prices!: CreativeUnitsPackView[];

  @ApiProperty({ type: [CreativeUnitsRateView], description: 'Each generation mode’s creative-unit rate (docs/credits.md)' })
  creativeUnitsCosts!: CreativeUnitsRateView[];
}
