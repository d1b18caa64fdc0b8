export {
  insertAccount,
  accountExists,
  accountName,
  accountTimeZone,
  findAccountTimeZone,
  accountDefaultCountry,
  setAccountTimeZone,
  setAccountDefaultCountry,
  accountZones,
} from './repository.js';
