import { IdField, NumberField } from './fields';

/** A LoRA or composition model applied on top of the main model (upstream `concepts` items). */
export class ConceptDto {
  @IdField({ required: true, description: 'The model ID (example: "model_eyVcnFJcR92BxBkz7N6g5w")' })
  modelId!: string;

  @IdField({
    description: 'The epoch of the model (example: "000001"). Only available for Flux LoRA trained models',
  })
  modelEpoch?: string;

  @NumberField({ required: true, min: -2, max: 2, description: 'The scale of the model (example: 1.0)' })
  scale!: number;
}
