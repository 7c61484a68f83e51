/** Rotations and rigid motions in 3D, for the synthetic meshes (dental-meshes.ts). */

export type Vec3 = [number, number, number];
/** Row-major 3 x 3. */
export type Matrix3 = number[];

export function randomDirection(random: () => number): Vec3 {
  const z = 2 * random() - 1;
  const phi = 2 * Math.PI * random();
  const r = Math.sqrt(1 - z * z);
  return [r * Math.cos(phi), r * Math.sin(phi), z];
}

/** Rodrigues' rotation of `angle` radians about the unit `axis`. */
export function axisAngle([x, y, z]: Vec3, angle: number): Matrix3 {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const t = 1 - c;
  return [
    t * x * x + c,
    t * x * y - s * z,
    t * x * z + s * y,
    t * x * y + s * z,
    t * y * y + c,
    t * y * z - s * x,
    t * x * z - s * y,
    t * y * z + s * x,
    t * z * z + c,
  ];
}

export function multiply(left: Matrix3, right: Matrix3): Matrix3 {
  return Array.from({ length: 9 }, (_, at) => {
    const [row, column] = [Math.floor(at / 3), at % 3];
    return (
      left[row * 3]! * right[column]! +
      left[row * 3 + 1]! * right[3 + column]! +
      left[row * 3 + 2]! * right[6 + column]!
    );
  });
}

export const cross = (p: Vec3, q: Vec3): Vec3 => [
  p[1] * q[2] - p[2] * q[1],
  p[2] * q[0] - p[0] * q[2],
  p[0] * q[1] - p[1] * q[0],
];

export function transformPoints(points: Float64Array, m: Matrix3, offset: Vec3, out: Float64Array) {
  for (let i = 0; i < points.length; i += 3) {
    const [x, y, z] = [points[i]!, points[i + 1]!, points[i + 2]!];
    out[i] = m[0]! * x + m[1]! * y + m[2]! * z + offset[0];
    out[i + 1] = m[3]! * x + m[4]! * y + m[5]! * z + offset[1];
    out[i + 2] = m[6]! * x + m[7]! * y + m[8]! * z + offset[2];
  }
}
