import type { Type } from '@nestjs/common';
import {
  ControlnetBody,
  ControlnetImg2ImgBody,
  ControlnetInpaintBody,
  ControlnetInpaintIpAdapterBody,
  ControlnetIpAdapterBody,
  ControlnetTextureBody,
  Img2ImgBody,
  Img2ImgIpAdapterBody,
  Img2ImgTextureBody,
  InpaintBody,
  InpaintIpAdapterBody,
  Txt2ImgBody,
  Txt2ImgIpAdapterBody,
  Txt2ImgTextureBody,
} from '../dto/inference-modes.dto';
import type { ModeEntry } from './mode-definition';

const IMAGE = ['image', 'imageId'] as const;
const MASK = ['mask', 'maskId'] as const;
const CONTROL = ['controlImage', 'controlImageId'] as const;
const IP_ADAPTER = ['ipAdapterImages', 'ipAdapterImageIds', 'ipAdapterImage', 'ipAdapterImageId'] as const;

function inference(
  name: ModeEntry['name'],
  summary: string,
  body: Type<object>,
  oneOf: (readonly string[])[] = [],
): ModeEntry {
  return {
    name,
    summary,
    body,
    response: 'inference',
    inferenceType: name.replace(/-/g, '_'),
    originalAssets: true,
    oneOf,
    runsModel: true,
    presets: true,
  };
}

/** The fourteen model inference modes: one job type (`inference`), told apart by `input.mode`. */
export const INFERENCE_MODES: readonly ModeEntry[] = [
  inference('txt2img', 'Txt2Img', Txt2ImgBody),
  inference('txt2img-ip-adapter', 'Txt2Img with one IP adapter reference image', Txt2ImgIpAdapterBody, [
    IP_ADAPTER,
  ]),
  inference('txt2img-texture', 'Seamless texture in Txt2Img mode', Txt2ImgTextureBody),
  inference('img2img', 'Img2Img with one reference image', Img2ImgBody, [IMAGE]),
  inference('img2img-ip-adapter', 'Img2Img plus a second image as IP adapter', Img2ImgIpAdapterBody, [
    IMAGE,
    IP_ADAPTER,
  ]),
  inference('img2img-texture', 'Seamless texture in Img2Img mode', Img2ImgTextureBody, [IMAGE]),
  inference('inpaint', 'Inpainting with a mask', InpaintBody, [IMAGE, MASK]),
  inference('inpaint-ip-adapter', 'Inpainting plus IP adapter image', InpaintIpAdapterBody, [
    IMAGE,
    MASK,
    IP_ADAPTER,
  ]),
  // Plain ControlNet: the control image is `image` (upstream echoes image/imageId) or controlImage.
  inference(
    'controlnet',
    'ControlNet: a control image (pose, canny map or similar) guides generation',
    ControlnetBody,
    [[...IMAGE, ...CONTROL]],
  ),
  inference('controlnet-img2img', 'ControlNet plus an initializing reference image', ControlnetImg2ImgBody, [
    IMAGE,
    CONTROL,
  ]),
  inference(
    'controlnet-inpaint',
    'ControlNet plus inpainting with a mask over the reference image',
    ControlnetInpaintBody,
    [IMAGE, MASK, CONTROL],
  ),
  inference(
    'controlnet-inpaint-ip-adapter',
    'ControlNet, inpainting, and a second reference image as an IP adapter',
    ControlnetInpaintIpAdapterBody,
    [IMAGE, MASK, CONTROL, IP_ADAPTER],
  ),
  inference(
    'controlnet-ip-adapter',
    'ControlNet plus a second reference image as an IP adapter',
    ControlnetIpAdapterBody,
    [[...IMAGE, ...CONTROL], IP_ADAPTER],
  ),
  inference('controlnet-texture', 'Seamless texture in ControlNet mode', ControlnetTextureBody, [
    [...IMAGE, ...CONTROL],
  ]),
];
