import { DETECT_MODALITIES, MODE_TABLE, type ModeBody } from '@genasset/contracts';
import { IsOptional, ArrayMaxSize } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, EnumField, ImageField, NestedField, NumberField, TextField } from './fields';
import { IsColor, IsNumberTuple, IsTupleList } from './validators';
import { GENERATE_LIMITS } from '../limits';

// Image tools answering job + asset + billing (detect, pixelate, remove-background,
// patch, vectorize) and segmentation. Upstream PostDetect…/PostPixelate…/… bodies.


export class DetectBody implements ModeBody<'detect'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to detect from: an asset id or a data URL',
  })
  image!: string;

  @EnumField(DETECT_MODALITIES, { required: true, default: 'canny', description: 'Modality to detect' })
  modality!: string;

  // Upstream bounds neither threshold nor factor, and any finite number is meaningful to the
  // detector (docs/engines.md, detect), so none is set here.
  @NumberField({
    description:
      'Low threshold for the Canny detector, on the |gx| + |gy| Sobel scale (which 8-bit images keep within 0–1530). Default 100',
  })
  lowThreshold?: number;

  @NumberField({
    description:
      'High threshold for the Canny detector, on the |gx| + |gy| Sobel scale (which 8-bit images keep within 0–1530). Default 200',
  })
  highThreshold?: number;

  @BoolField({ default: true, description: 'Remove the background (grayscale detector)' })
  removeBackground?: boolean;

  @NumberField({ min: 0, max: 255, description: 'Minimum threshold for the grayscale conversion' })
  minThreshold?: number;

  @NumberField({ min: 0, max: 255, description: 'Maximum threshold for the grayscale conversion' })
  maxThreshold?: number;

  @NumberField({
    description: 'Contrast factor for the grayscale detector: contrast max(0, 1 + factor / 50). Default 0',
  })
  factor?: number;

  @NumberField({ min: 0, max: 1, description: 'Keypoint confidence threshold (pose detector)' })
  keypointThreshold?: number;
}

export class PixelateBody implements ModeBody<'pixelate'> {
  @ImageField('asset', { required: true, description: 'The asset id of the image to pixelate' })
  image!: string;

  @EnumField(MODE_TABLE.pixelate.fields.pixelGridSize.enum, {
    required: true,
    description: 'The size of the pixel grid of the output',
  })
  pixelGridSize!: (typeof MODE_TABLE.pixelate.fields.pixelGridSize.enum)[number];

  @BoolField({ required: true, description: 'Reduce pixel art artifacts' })
  removeNoise!: boolean;

  @BoolField({ default: false, description: 'Remove the background from the image' })
  removeBackground?: boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 } },
    description: 'The palette: [r, g, b] items, integers within [0, 255]',
  })
  @IsOptional()
  @ArrayMaxSize(GENERATE_LIMITS.listItems)
  @IsTupleList({ length: 3, min: 0, max: 255, integer: true })
  colorPalette?: number[][];

  @NumberField({ int: true, min: 2, max: 256, description: 'Palette size when no colorPalette is given' })
  colorPaletteSize?: number;
}

export class RemoveBackgroundBody implements ModeBody<'remove-background'> {
  @ImageField('asset', { required: true, description: 'The asset id of the image' })
  image!: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Background colour: hex (#FFFFFF), a colour name, or "transparent" for png',
  })
  @IsOptional()
  @IsColor()
  backgroundColor?: string;

  @EnumField(['jpeg', 'png'], { default: 'png', description: 'The output format' })
  format?: string;
}

export class PatchMergeDto {
  @EnumField(['erase', 'override'], {
    required: true,
    default: 'override',
    description: 'How the images are merged',
  })
  mode!: string;

  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to merge: a data URL or an asset id',
  })
  image!: string;
}

export class PatchPositionDto {
  @NumberField({
    required: true,
    int: true,
    min: -65536,
    max: 65536,
    description: 'X position of the merged image, in pixels',
  })
  x!: number;

  @NumberField({
    required: true,
    int: true,
    min: -65536,
    max: 65536,
    description: 'Y position of the merged image, in pixels',
  })
  y!: number;
}

export class PatchCropDto {
  @NumberField({ required: true, int: true, min: 0, max: 65536, description: 'Top edge, in pixels' })
  top!: number;

  @NumberField({ required: true, int: true, min: 0, max: 65536, description: 'Left edge, in pixels' })
  left!: number;

  @NumberField({ required: true, int: true, min: 1, max: 65536, description: 'Width, in pixels' })
  width!: number;

  @NumberField({ required: true, int: true, min: 1, max: 65536, description: 'Height, in pixels' })
  height!: number;

  @ApiPropertyOptional({ type: String, description: 'Fill colour (rgba, hex or named)' })
  @IsOptional()
  @IsColor()
  backgroundColor?: string;
}

export class PatchBody implements ModeBody<'patch'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The input image: a data URL or an asset id',
  })
  image!: string;

  @NestedField(() => PatchMergeDto, { description: 'The image to be merged' })
  patch?: PatchMergeDto;

  @NestedField(() => PatchPositionDto, { description: 'The position of the merged image' })
  position?: PatchPositionDto;

  @NestedField(() => PatchCropDto, { description: 'Crop applied to the image before any other operation' })
  crop?: PatchCropDto;

  @ApiPropertyOptional({
    type: String,
    description: 'Background colour: hex, a colour name, or "transparent" for png. Default white',
  })
  @IsOptional()
  @IsColor()
  backgroundColor?: string;

  @EnumField(['jpeg', 'png'], { description: 'The output format. Default png' })
  format?: string;

  @BoolField({
    description: 'Let the merged image extend the original (negative x or y, bigger merged image)',
  })
  allowOverflow?: boolean;
}

export class VectorizeBody implements ModeBody<'vectorize'> {
  @ImageField('asset', { required: true, description: 'The asset id of the image to vectorize' })
  image!: string;

  @EnumField(['asset', 'bw', 'custom', 'photo', 'pixelart', 'poster'], {
    default: 'custom',
    description: 'A preset overrides every other parameter except for custom',
  })
  preset?: string;

  @EnumField(['none', 'polygon', 'spline'], { default: 'spline', description: 'Curve fitting mode' })
  mode?: string;

  @EnumField(['bw', 'color'], { default: 'color', description: 'Colour mode' })
  colorMode?: string;

  @NumberField({ min: 0, max: 255, description: 'Colour difference between gradient layers (color mode)' })
  layerDifference?: number;

  @NumberField({ int: true, min: 1, max: 100000, description: 'Max iterations for rendering' })
  maxIterations?: number;

  @NumberField({ min: 0, max: 180, description: 'Minimum angle (degrees) to be a corner (spline mode)' })
  cornerThreshold?: number;

  @NumberField({ int: true, min: 1, max: 16, description: 'Significant bits per RGB channel (color mode)' })
  colorPrecision?: number;

  @NumberField({
    min: 0,
    max: 180,
    description: 'Minimum angle displacement (degrees) to splice a spline (spline mode)',
  })
  spliceThreshold?: number;

  @NumberField({ min: 3.5, max: 10, description: 'Minimum segment length (spline mode)' })
  lengthThreshold?: number;

  @NumberField({ int: true, min: 0, max: 128, description: 'Discard patches smaller than this many pixels' })
  filterSpeckle?: number;

  @NumberField({ int: true, min: 0, max: 16, description: 'Decimal places in the path strings' })
  pathPrecision?: number;
}

export class SegmentBody implements ModeBody<'segment'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to segment: an asset id or a data URL',
  })
  image!: string;

  @EnumField(['fastsam_x', 'sam_b', 'sam_h'], { default: 'fastsam_x', description: 'The checkpoint to use' })
  checkpoint?: string;

  @TextField({ maxLength: 100, description: 'A description or keywords of the object of interest' })
  text?: string;

  @ApiPropertyOptional({
    type: [Number],
    minItems: 4,
    maxItems: 4,
    description: 'Bounding box of the object [x1, y1, x2, y2]',
  })
  @IsOptional()
  @IsNumberTuple(4)
  bbox?: number[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'array', items: { type: 'number' } },
    description: 'Points [label, x, y]: label 0 background, 1 object',
  })
  @IsOptional()
  @ArrayMaxSize(GENERATE_LIMITS.listItems)
  @IsTupleList({ length: 3, first: [0, 1] })
  points?: number[][];

  @NumberField({ int: true, min: 0, max: 30, description: 'Pixels to dilate the result masks' })
  dilate?: number;

  @NumberField({ int: true, min: 0, max: 255, description: 'Opacity of the background in the result images' })
  backgroundOpacity?: number;

  @BoolField({ default: false, description: 'Remove small dark spots and connect small bright cracks' })
  betterQuality?: boolean;

  @BoolField({ default: false, description: 'Output the contours' })
  resultContours?: boolean;

  @BoolField({ default: false, description: 'Output the cut out object' })
  resultImage?: boolean;

  @BoolField({ default: true, description: 'Output the masks' })
  resultMask?: boolean;
}
