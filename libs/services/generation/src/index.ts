export { GENERATION_SCHEMA, GENERATION_SERVICE } from './generation.schema';
export { GenerationServiceModule } from './generation.module';
