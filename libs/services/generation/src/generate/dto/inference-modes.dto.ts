import type { ModeBody } from '@genasset/contracts';
import { InferenceBody, Txt2ImgBody } from './inference-base.dto';
import {
  WithControlImage,
  WithInputImage,
  WithIpAdapter,
  WithMask,
  WithMerging,
  WithModality,
  WithStrength,
} from './inference-inputs.dto';

// The fourteen model inference bodies (upstream Post<Mode>InferencesRequest),
// each the shared fields plus its input groups. Field sets match the upstream
// reference exactly; which of them are required together is in the mode registry.

export { Txt2ImgBody };
export class Txt2ImgIpAdapterBody extends WithIpAdapter(Txt2ImgBody) implements ModeBody<'txt2img-ip-adapter'> {}
export class Txt2ImgTextureBody extends InferenceBody implements ModeBody<'txt2img-texture'> {}

export class Img2ImgBody extends WithStrength(WithInputImage(InferenceBody)) implements ModeBody<'img2img'> {}
export class Img2ImgIpAdapterBody extends WithIpAdapter(
  WithMask(WithStrength(WithInputImage(InferenceBody))),
) implements ModeBody<'img2img-ip-adapter'> {}
export class Img2ImgTextureBody extends WithMask(WithStrength(WithInputImage(InferenceBody))) implements ModeBody<'img2img-texture'> {}

export class InpaintBody extends WithMerging(WithMask(WithStrength(WithInputImage(InferenceBody)))) implements ModeBody<'inpaint'> {}
export class InpaintIpAdapterBody extends WithIpAdapter(InpaintBody) implements ModeBody<'inpaint-ip-adapter'> {}

export class ControlnetBody extends WithModality(WithControlImage(WithInputImage(InferenceBody))) implements ModeBody<'controlnet'> {}
export class ControlnetImg2ImgBody extends WithStrength(ControlnetBody) implements ModeBody<'controlnet-img2img'> {}
export class ControlnetInpaintBody extends WithMerging(WithMask(WithStrength(ControlnetBody))) implements ModeBody<'controlnet-inpaint'> {}
export class ControlnetInpaintIpAdapterBody extends WithIpAdapter(
  WithMerging(WithMask(WithStrength(WithControlImage(WithInputImage(InferenceBody))))),
) implements ModeBody<'controlnet-inpaint-ip-adapter'> {}
export class ControlnetIpAdapterBody extends WithIpAdapter(ControlnetBody) implements ModeBody<'controlnet-ip-adapter'> {}
export class ControlnetTextureBody extends WithModality(WithControlImage(WithInputImage(InferenceBody))) implements ModeBody<'controlnet-texture'> {}
