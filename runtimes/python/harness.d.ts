declare module '*.py?raw' {
  const source: string;
  export default source;
}
