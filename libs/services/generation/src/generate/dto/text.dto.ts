import { PROMPT_MODES, type ModeBody } from '@genasset/contracts';
import {
  BoolField,
  EnumField,
  IdField,
  ImageField,
  ImageListField,
  NumberField,
  SeedField,
  StringListField,
  TextField,
} from './fields';

// Language-model modes: caption, describe-style, embed, prompt, translate.

/** Sampling fields every language-model mode takes. */
class SamplingBody {
  @SeedField()
  seed?: number;

  @NumberField({
    min: 0,
    max: 2,
    description: 'Sampling temperature: higher is more random (alter this or topP, not both)',
  })
  temperature?: number;

  @NumberField({
    min: 0,
    max: 1,
    description: 'Nucleus sampling probability mass (alter this or temperature, not both)',
  })
  topP?: number;

  @BoolField({ description: 'Try to ensure intellectual property is removed from the generated text' })
  ensureIPCleared?: boolean;
}

export class CaptionBody extends SamplingBody implements ModeBody<'caption'> {
  @ImageListField('asset-or-data-url', {
    required: true,
    min: 1,
    description: 'Images to caption (data URLs or asset ids); captions come in the same order',
  })
  images!: string[];

  @ImageListField('asset', { deprecated: true, description: 'Deprecated: asset ids to caption; use images' })
  assetIds?: string[];

  @IdField({ description: 'Follow this model’s training images and examples when captioning' })
  modelId?: string;

  @EnumField(['action', 'action+style'], {
    description: 'Details level of the captions (ignored when the model has examples)',
  })
  detailsLevel?: string;

  @StringListField({ maxItems: 100, description: 'Word sequences that must not appear in the captions' })
  unwantedSequences?: string[];
}

export class DescribeStyleBody extends SamplingBody implements ModeBody<'describe-style'> {
  @ImageListField('asset-or-data-url', {
    description: 'Images whose style is described (data URLs or asset ids)',
  })
  images?: string[];

  @ImageListField('asset', { description: 'Asset ids whose style is described' })
  assetIds?: string[];

  @IdField({ description: 'A model whose training images and examples are described' })
  modelId?: string;

  @StringListField({ maxItems: 100, description: 'Word sequences that must not appear in the description' })
  unwantedSequences?: string[];
}

export class EmbedBody implements ModeBody<'embed'> {
  @TextField({ required: true, description: 'The text to embed; not empty' })
  text!: string;
}

export class PromptBody extends SamplingBody implements ModeBody<'prompt'> {
  @EnumField(PROMPT_MODES, {
    required: true,
    default: 'structured',
    description: 'How new prompts are generated',
  })
  mode!: string;

  @TextField({ description: 'The initial prompt fed to completion, inventive or structured modes' })
  prompt?: string;

  @ImageField('asset-or-data-url', {
    description: 'Input image (data URL or asset id); required in image-editing mode',
  })
  image?: string;

  @ImageListField('asset-or-data-url', {
    description: 'Images conditioning the generation (data URLs or asset ids)',
  })
  images?: string[];

  @ImageListField('asset', {
    description: 'Asset ids conditioning the generation (ignored in image-editing mode)',
  })
  assetIds?: string[];

  @IdField({ description: 'A model conditioning the generation' })
  modelId?: string;

  @NumberField({ int: true, min: 1, max: 5, description: 'Number of prompts to return' })
  numResults?: number;
}

export class TranslateBody extends SamplingBody implements ModeBody<'translate'> {
  @TextField({ required: true, description: 'The prompt to translate into English' })
  prompt!: string;

  @ImageListField('asset-or-data-url', {
    description: 'Images giving context to the translation (data URLs or asset ids)',
  })
  images?: string[];
}
