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
export class Txt2ImgIpAdapterBody extends WithIpAdapter(Txt2ImgBody) {}
export class Txt2ImgTextureBody extends InferenceBody {}

export class Img2ImgBody extends WithStrength(WithInputImage(InferenceBody)) {}
export class Img2ImgIpAdapterBody extends WithIpAdapter(
  WithMask(WithStrength(WithInputImage(InferenceBody))),
) {}
export class Img2ImgTextureBody extends WithMask(WithStrength(WithInputImage(InferenceBody))) {}

export class InpaintBody extends WithMerging(WithMask(WithStrength(WithInputImage(InferenceBody)))) {}
export class InpaintIpAdapterBody extends WithIpAdapter(InpaintBody) {}

export class ControlnetBody extends WithModality(WithControlImage(WithInputImage(InferenceBody))) {}
export class ControlnetImg2ImgBody extends WithStrength(ControlnetBody) {}
export class ControlnetInpaintBody extends WithMerging(WithMask(WithStrength(ControlnetBody))) {}
export class ControlnetInpaintIpAdapterBody extends WithIpAdapter(
  WithMerging(WithMask(WithStrength(WithControlImage(WithInputImage(InferenceBody))))),
) {}
export class ControlnetIpAdapterBody extends WithIpAdapter(ControlnetBody) {}
export class ControlnetTextureBody extends WithModality(WithControlImage(WithInputImage(InferenceBody))) {}
