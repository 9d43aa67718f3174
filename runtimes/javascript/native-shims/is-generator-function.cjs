module.exports = (fn) => typeof fn === 'function' && Object.prototype.toString.call(fn) === '[object GeneratorFunction]';
