export { type FieldRule, type FieldRules, type InputOf } from './field-rule';
export { ASPECT_RATIOS, PROMPT_EDITING_MODELS, PROMPT_MODES, SCHEDULERS, SKYBOX_STYLES } from './mode-enums';
export {
  MODE_TABLE,
  MODES,
  DETECT_MODALITIES,
  DETECT_MODALITY_ENGINES,
  isGenerationMode,
  modeSpec,
  type ModeSpec,
  type GenerationMode,
  type DetectModality,
  type BuiltInEngine,
  type FileBackend,
  type OpenaiCall,
  type PricingGroup,
} from './mode-table';
export {
  MODE_ROUTES,
  isModeRoute,
  routeOf,
  modeOfRoute,
  builtInEngineOf,
  outputAssetType,
  isResultMode,
  modeOfJobType,
  type ModeRoute,
} from './mode-routes';
export { type ModeBody, type ModeInput, type ModeJobInput, type JobInputExtras } from './mode-input';
