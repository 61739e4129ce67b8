import { IsString, Matches } from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';

/** A fact about one model of the registry, published by generation-service. Key: modelId. */
export class ModelFactData {
  @IsString()
  @Matches(/^model_[0-9A-Za-z]+$/)
  modelId!: string;

  @IsString()
  teamId!: string;

  /** The owning project. */
  @IsString()
  projectId!: string;
}

/** The model is gone: collections drop it. */
export const ModelDeleted = defineEvent({
  type: 'model.deleted',
  topic: TOPICS.modelEvents,
  payload: ModelFactData,
  keyField: 'modelId',
});
