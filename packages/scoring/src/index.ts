export {
  defineModel,
  score,
  largestRemainder,
  type Assessment,
  type Criterion,
  type Knockout,
  type ScoringModel,
  type ScoreResult,
  type CriterionResult,
} from './engine.js';
export { atLeast, atMost } from './tolerance.js';
