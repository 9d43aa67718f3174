// callBound('RegExp.prototype.test') → (thisArg, ...args) => RegExp.prototype.test.call(thisArg, ...args)
module.exports = (name) => {
  const fn = name.split('.').reduce((object, key) => object[key], globalThis);
  return (thisArg, ...args) => fn.apply(thisArg, args);
};
