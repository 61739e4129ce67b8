import { ValidateBy, type ValidationArguments } from 'class-validator';

/** What an image field accepts: upstream fields take an asset id, a data URL, or either. */
export type ImageAccepts = 'asset-or-data-url' | 'asset' | 'data-url';

/** `asset_<id>`: the shape asset-service mints (older upstream ids use other alphabets). */
export const ASSET_ID_PATTERN = /^asset_[0-9A-Za-z]{1,64}$/;
/** The declared part only; the content is decoded and sniffed when the request is resolved. */
export const IMAGE_DATA_URL_PATTERN = /^data:image\/[A-Za-z0-9.+-]{1,40};base64,/;

export interface ImageField {
  property: string;
  accepts: ImageAccepts;
  /** A list of images rather than one. */
  each: boolean;
}

const FIELDS = new WeakMap<object, ImageField[]>();

export function isAssetId(value: unknown): value is string {
  return typeof value === 'string' && ASSET_ID_PATTERN.test(value);
}

export function isImageDataUrl(value: unknown): value is string {
  return typeof value === 'string' && IMAGE_DATA_URL_PATTERN.test(value);
}

function accepted(value: unknown, accepts: ImageAccepts): boolean {
  if (accepts !== 'data-url' && isAssetId(value)) return true;
  return accepts !== 'asset' && isImageDataUrl(value);
}

const DESCRIPTIONS: Record<ImageAccepts, string> = {
  'asset-or-data-url': 'an asset id (asset_…) or an image data URL (data:image/<type>;base64,…)',
  asset: 'an asset id (asset_…)',
  'data-url': 'an image data URL (data:image/<type>;base64,…)',
};

/**
 * Marks an image input: validates its shape and registers the field, so the
 * request resolver finds every image of any body (asset ids checked against
 * the caller's project, data URLs decoded and claim-checked) without a list
 * per mode. `each` for a list of images (pair it with @IsArray).
 */
export function ImageRef(accepts: ImageAccepts, options: { each?: boolean } = {}): PropertyDecorator {
  const each = options.each ?? false;
  return (target, property) => {
    const name = String(property);
    FIELDS.set(target, [
      ...(FIELDS.get(target) ?? []).filter((f) => f.property !== name),
      { property: name, accepts, each },
    ]);
    ValidateBy(
      {
        name: 'imageRef',
        validator: {
          validate: (value: unknown) => accepted(value, accepts),
          defaultMessage: (args?: ValidationArguments) =>
            `${args?.property ?? name}${each ? ' items' : ''} must be ${DESCRIPTIONS[accepts]}`,
        },
      },
      { each },
    )(target, property);
  };
}

/** Image fields declared on the instance's class and its ancestors. */
export function imageFieldsOf(instance: object): ImageField[] {
  const fields = new Map<string, ImageField>();
  for (
    let proto = Object.getPrototypeOf(instance);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const field of FIELDS.get(proto) ?? [])
      if (!fields.has(field.property)) fields.set(field.property, field);
  }
  return [...fields.values()];
}
