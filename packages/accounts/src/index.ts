export {
  insertAccount,
  accountExists,
  accountName,
  accountNames,
  accountTimeZone,
  findAccountTimeZone,
  accountDefaultCountry,
  setAccountTimeZone,
  setAccountDefaultCountry,
  accountZones,
} from './repository.js';
