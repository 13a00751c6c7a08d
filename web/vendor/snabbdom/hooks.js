export {};
//# sourceMappingURL=hooks.js.map