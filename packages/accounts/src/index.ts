export {
  insertAccount,
  accountExists,
  accountName,
  accountNames,
  listAccounts,
  accountTimeZone,
  findAccountTimeZone,
  accountDefaultCountry,
  setAccountTimeZone,
  setAccountDefaultCountry,
  accountZones,
} from './repository.js';
