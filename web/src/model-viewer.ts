/**
 * The 3D card's viewer (STL, glTF/GLB, OBJ, PLY) on three.js. Loaded only by
 * a dynamic import from cards.ts when a model card is rendered, so three.js
 * is a chunk of its own and never part of the first page's JavaScript.
 *
 * Rendering happens only while the canvas is on screen (an orbit drag or a
 * resize asks for one frame); nothing animates in the background.
 */
import {
  AmbientLight,
  Box3,
  BufferGeometry,
  Color,
  DirectionalLight,
  Mesh,
  MeshStandardMaterial,
  Object3D,
  PerspectiveCamera,
  Points,
  PointsMaterial,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';

export type ModelFormat = 'stl' | 'gltf' | 'glb' | 'obj' | 'ply';

export function modelFormatOf(filename: string, contentType: string): ModelFormat | null {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  if (ext === 'stl' || contentType === 'model/stl') return 'stl';
  if (ext === 'glb' || contentType === 'model/gltf-binary') return 'glb';
  if (ext === 'gltf' || contentType === 'model/gltf+json') return 'gltf';
  if (ext === 'obj' || contentType === 'model/obj') return 'obj';
  if (ext === 'ply' || contentType === 'model/ply') return 'ply';
  return null;
}

const material = () => new MeshStandardMaterial({ color: 0x8aa4c8, metalness: 0.1, roughness: 0.6 });

async function parse(format: ModelFormat, bytes: ArrayBuffer): Promise<Object3D> {
  switch (format) {
    case 'stl':
      return new Mesh(new STLLoader().parse(bytes), material());
    case 'ply': {
      const geometry: BufferGeometry = new PLYLoader().parse(bytes);
      if (!geometry.index && !geometry.getAttribute('normal'))
        return new Points(geometry, new PointsMaterial({ size: 0.01 }));
      geometry.computeVertexNormals();
      return new Mesh(geometry, material());
    }
    case 'obj':
      return new OBJLoader().parse(new TextDecoder().decode(bytes));
    case 'gltf':
    case 'glb': {
      // External buffers of a .gltf would resolve against a blob: URL: only self-contained files load.
      const gltf = await new GLTFLoader().parseAsync(bytes, '');
      return gltf.scene;
    }
  }
}

/**
 * Draws the model on `canvas`. Throws when WebGL is unavailable or the file
 * does not parse; the caller shows a download link instead.
 */
export async function mountModel(
  canvas: HTMLCanvasElement,
  bytes: ArrayBuffer,
  format: ModelFormat,
): Promise<() => void> {
  const object = await parse(format, bytes);
  const renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new Scene();
  scene.background = new Color(0xf4f6fa);
  scene.add(new AmbientLight(0xffffff, 0.7));
  const sun = new DirectionalLight(0xffffff, 1.6);
  sun.position.set(1, 2, 3);
  scene.add(sun);
  scene.add(object);

  // Frame the model: centre it and put the camera at a distance that shows all of it.
  const box = new Box3().setFromObject(object);
  const size = box.getSize(new Vector3()).length() || 1;
  const centre = box.getCenter(new Vector3());
  object.position.sub(centre);
  const camera = new PerspectiveCamera(45, 1, size / 100, size * 100);
  camera.position.set(size * 0.8, size * 0.6, size * 0.9);
  camera.lookAt(0, 0, 0);
  const controls = new OrbitControls(camera, canvas);

  const draw = () => {
    const width = canvas.clientWidth || 320;
    const height = canvas.clientHeight || 240;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    renderer.render(scene, camera);
  };
  controls.addEventListener('change', draw);
  const resize = new ResizeObserver(draw);
  resize.observe(canvas);
  draw();
  return () => {
    resize.disconnect();
    controls.dispose();
    renderer.dispose();
  };
}
