// Matching (Abgleich): the inquiry scoring model, in JavaScript and in SQL, and the ranked matches in both directions.
export { matchingRoutes } from './routes.js';
export { createMatchingService, type MatchingService } from './service.js';
export { INQUIRY_MODEL, scoreInquiry, type InquiryScore, type InquirySubject } from './model.js';
export { locationKeys } from './location.js';
export { rankProspectsInSql } from './matching-sql.js';
export { InquiryScoreSchema } from './schemas.js';
