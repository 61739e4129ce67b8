import {
  creativeUnitsCost,
  creativeUnitsCostTableFromEnv,
  creativeUnitsRate,
  DEFAULT_CREATIVE_UNITS_COSTS,
  GENERATION_MODES,
  parseCreativeUnitsCosts,
  type GenerationMode,
} from '../index';

const cost = (request: Parameters<typeof creativeUnitsCost>[0], table = DEFAULT_CREATIVE_UNITS_COSTS) =>
  creativeUnitsCost(request, table).creativeUnitsCost;

describe('creativeUnitsCost (defaults)', () => {
  it('prices model inference by output megapixels × samples', () => {
    expect(cost({ mode: 'txt2img' })).toBe(6); // 1024² assumed: 1 + 4 × 1.048576
    expect(cost({ mode: 'txt2img', width: 1024, height: 1024 })).toBe(6);
    expect(cost({ mode: 'txt2img', width: 512, height: 512 })).toBe(3); // 1 + 1.048576
    expect(cost({ mode: 'txt2img', width: 1024, height: 1024, numSamples: 4 })).toBe(21); // 4 × 5.194304
    expect(cost({ mode: 'controlnet-inpaint-ip-adapter', width: 2048, height: 2048, numSamples: 2 })).toBe(
      36,
    );
    // One side given: a square.
    expect(cost({ mode: 'img2img', width: 512 })).toBe(3);
  });

  it('keeps image operations cheap and text modes small', () => {
    expect(cost({ mode: 'pixelate' })).toBe(2); // 1 + 0.25 × 1.048576
    expect(cost({ mode: 'upscale', width: 4096, height: 4096 })).toBe(6); // 1 + 0.25 × 16.777216
    expect(cost({ mode: 'detect', width: 256, height: 256 })).toBe(2);
    expect(cost({ mode: 'caption' })).toBe(1);
    expect(cost({ mode: 'caption', numSamples: 3 })).toBe(3);
    expect(cost({ mode: 'translate', width: 4000, height: 4000 })).toBe(1); // size does not matter for text
  });

  it('prices every generation mode with whole units ≥ 1 and no discount', () => {
    for (const mode of GENERATION_MODES) {
      const price = creativeUnitsCost({ mode });
      expect(Number.isInteger(price.creativeUnitsCost)).toBe(true);
      expect(price.creativeUnitsCost).toBeGreaterThanOrEqual(1);
      expect(price.creativeUnitsDiscount).toBe(0);
    }
  });

  it('refuses unknown modes and nonsensical sizes', () => {
    expect(() => cost({ mode: 'teleport' as GenerationMode })).toThrow(RangeError);
    expect(() => cost({ mode: 'txt2img', numSamples: 0 })).toThrow(/numSamples/);
    expect(() => cost({ mode: 'txt2img', numSamples: 1.5 })).toThrow(/numSamples/);
    expect(() => cost({ mode: 'txt2img', width: -1, height: 512 })).toThrow(/width and height/);
    expect(() => cost({ mode: 'txt2img', width: Number.NaN })).toThrow(/width and height/);
  });
});

describe('CREATIVE_UNITS_COSTS overrides', () => {
  it('overrides a group, then a mode over its group', () => {
    const table = parseCreativeUnitsCosts(
      JSON.stringify({ inference: { perMegapixel: 10 }, txt2img: { perSample: 0, minimum: 50 } }),
    );
    expect(cost({ mode: 'img2img', width: 1000, height: 1000 }, table)).toBe(11); // 1 + 10 × 1
    expect(cost({ mode: 'txt2img', width: 1000, height: 1000 }, table)).toBe(50); // 10 < minimum
    expect(cost({ mode: 'txt2img', width: 2000, height: 3000 }, table)).toBe(60);
    expect(creativeUnitsRate('txt2img', table)).toEqual({
      perRequest: 0,
      perSample: 0,
      perMegapixel: 10,
      minimum: 50,
      discountPercent: 0,
    });
    // The defaults are untouched.
    expect(cost({ mode: 'img2img', width: 1000, height: 1000 })).toBe(5);
  });

  it('applies a discount: the waived part is rounded down, the billed cost is what remains', () => {
    const table = parseCreativeUnitsCosts('{"text":{"perRequest":9,"discountPercent":25}}');
    expect(creativeUnitsCost({ mode: 'embed' }, table)).toEqual({
      creativeUnitsCost: 8,
      creativeUnitsDiscount: 2, // floor(10 × 25 %)
    });
    const free = parseCreativeUnitsCosts('{"segment":{"discountPercent":100}}');
    expect(creativeUnitsCost({ mode: 'segment' }, free)).toEqual({
      creativeUnitsCost: 0,
      creativeUnitsDiscount: 2,
    });
  });

  it('reads the variable from an environment and falls back to the defaults', () => {
    expect(creativeUnitsCostTableFromEnv({})).toBe(DEFAULT_CREATIVE_UNITS_COSTS);
    expect(creativeUnitsCostTableFromEnv({ CREATIVE_UNITS_COSTS: '' })).toBe(DEFAULT_CREATIVE_UNITS_COSTS);
    const table = creativeUnitsCostTableFromEnv({ CREATIVE_UNITS_COSTS: '{"caption":{"perSample":2}}' });
    expect(cost({ mode: 'caption', numSamples: 3 }, table)).toBe(6);
  });

  it.each([
    ['not json', /not valid JSON/],
    ['[1]', /JSON object/],
    ['{"teleport":{"minimum":1}}', /unknown group or mode "teleport"/],
    ['{"txt2img":3}', /"txt2img" must be an object/],
    ['{"txt2img":{"price":3}}', /"txt2img.price" is not a rate field/],
    ['{"txt2img":{"minimum":-1}}', /"txt2img.minimum" must be a number ≥ 0/],
    ['{"txt2img":{"minimum":"3"}}', /"txt2img.minimum" must be a number ≥ 0/],
    ['{"image":{"discountPercent":101}}', /discountPercent" must be ≤ 100/],
  ])('refuses %s naming the variable', (json, message) => {
    expect(() => parseCreativeUnitsCosts(json)).toThrow(/^CREATIVE_UNITS_COSTS: /);
    expect(() => parseCreativeUnitsCosts(json)).toThrow(message);
  });
});
